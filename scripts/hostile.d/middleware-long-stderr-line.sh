# Issue 35 item 11: a middleware that writes a 3 MiB line to stderr is
# still drained: the plan goes on, the line is shown cut, saying so.
set -euo pipefail
source "$HOSTILE_LIB"

cat > mw.sh <<'SH'
#!/usr/bin/env bash
head -c 3145728 /dev/zero | tr '\0' x >&2
echo >&2
echo "after the long line" >&2
while IFS= read -r line; do
  id=$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")
  if [[ $line == *'"method":"initialize"'* ]]; then
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"capabilities\":[\"pre-plan\"]}}"
  else
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"status\":\"success\"}}"
  fi
done
SH
cat > main.tf <<'TF'
terraform {
  middleware = [middleware.m]
}
middleware "m" {
  command      = "bash"
  args         = ["mw.sh"]
  metadata_key = "m"
}
resource "random_id" "x" {
  byte_length = 4
}
TF
expect_status 0 "$HCL2CUE" plan --middleware . > out.txt 2> err.txt
expect_grep 'random_id.x will be created' out.txt
expect_grep '^\[m\] x+ \[line cut: [0-9]+ more bytes not shown\]$' err.txt
expect_grep '^\[m\] after the long line$' err.txt
echo "plan exits 0; the 3 MiB line is shown cut and what follows it shown"
