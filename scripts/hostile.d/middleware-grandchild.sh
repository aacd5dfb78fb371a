# Issue 35 item 10: a process a middleware starts in a session of its own
# (setsid sleep) does not outlive the command.
set -euo pipefail
source "$HOSTILE_LIB"

nap="31$RANDOM.25" # a sleep no one else runs
cat > mw.sh <<'SH'
#!/usr/bin/env bash
# A middleware that leaves a daemon behind, then answers every call.
setsid sleep "$1" </dev/null >/dev/null 2>&1 &
while IFS= read -r line; do
  id=$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")
  if [[ $line == *'"method":"initialize"'* ]]; then
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"capabilities\":[\"pre-plan\"]}}"
  else
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"status\":\"success\"}}"
  fi
done
SH
cat > main.tf <<TF
terraform {
  middleware = [middleware.m]
}
middleware "m" {
  command      = "bash"
  args         = ["mw.sh", "$nap"]
  metadata_key = "m"
}
resource "random_id" "x" {
  byte_length = 4
}
TF
expect_status 0 "$HCL2CUE" plan --middleware . > out.txt 2> err.txt
expect_grep 'random_id.x will be created' out.txt
if pgrep -f "sleep $nap" > /dev/null; then
  pkill -f "sleep $nap" || true
  echo "the middleware's setsid sleep outlived hcl2cue plan" >&2
  exit 1
fi
echo "plan exits 0 and the middleware's setsid sleep is gone"
