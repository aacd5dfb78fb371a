# Issue 35 item 2: SIGINT and SIGTERM stop every long phase of every
# command (tofulint over a large tree, --fix, convert, plan with middleware,
# verify) within a second, with status 130 or 143, leaving no temporary
# file and no middleware process behind, and no file half-written.
set -euo pipefail
source "$HOSTILE_LIB"

python3 - <<'PY'
import os
# 2,500 modules of 40 deprecated_interpolation fixes each: seconds of
# tofulint, --fix and convert.
for m in range(2500):
    d = f"tree/m{m}"
    os.makedirs(d)
    with open(d + "/main.tf", "w") as f:
        f.write('variable "x" {\n  type = list(string)\n}\n')
        for r in range(40):
            f.write(f'resource "terraform_data" "r{r}" {{\n  input = "${{var.x}}"\n}}\n')
# 2 x 20,000 instances: seconds of plan and verify.
os.makedirs("big")
with open("big/main.tf", "w") as f:
    f.write('resource "terraform_data" "a" {\n  count = 20000\n  input = "x-${count.index}"\n}\n')
    f.write('resource "terraform_data" "b" {\n  count = 20000\n  input = terraform_data.a[count.index].output\n}\n')
    f.write('output "o" {\n  value = terraform_data.b[*].output\n}\n')
PY
cp -r tree orig
sed 's/"\${var.x}"/var.x/' orig/m0/main.tf > fixed.tf

# A middleware that answers every hook slowly and ignores SIGTERM.
nap="32$RANDOM.25" # a sleep no one else runs
cat > mw.sh <<'SH'
#!/usr/bin/env bash
trap '' TERM
sleep "$1" </dev/null >/dev/null 2>&1 &
while IFS= read -r line; do
  id=$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$line")
  if [[ $line == *'"method":"initialize"'* ]]; then
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"capabilities\":[\"pre-plan\"]}}"
  else
    sleep 0.01
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"status\":\"success\"}}"
  fi
done
SH
mkdir mwm
cat > mwm/main.tf <<TF
terraform {
  middleware = [middleware.m]
}
middleware "m" {
  command      = "bash"
  args         = ["../mw.sh", "$nap"]
  metadata_key = "m"
}
resource "terraform_data" "x" {
  count = 5000
  input = count.index
}
TF

# interrupted SIG WANT CMD...: start CMD, send SIG half a second later, and
# fail unless CMD exits with WANT within a second of the signal.
interrupted() {
  local sig=$1 want=$2
  shift 2
  "$@" > out.txt 2> err.txt &
  local pid=$! got=0 start ms
  sleep 0.5
  if ! kill -0 "$pid" 2> /dev/null; then
    echo "'$*' ended before the signal: make the input larger" >&2
    exit 1
  fi
  start=$(date +%s%N)
  kill -"$sig" "$pid"
  wait "$pid" || got=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [[ $got -ne $want ]]; then
    echo "'$*' exited with $got after SIG$sig, want $want" >&2
    tail -5 err.txt >&2
    exit 1
  fi
  if (( ms > 1000 )); then
    echo "'$*' took $ms ms to stop after SIG$sig" >&2
    exit 1
  fi
  expect_grep "interrupted \\(SIG$sig\\)" err.txt
  echo "SIG$sig: $(basename "$1") ${2:-} exited $got after $ms ms"
}

# no_leftovers: no temporary file of --fix or convert, and every file of
# the tree whole (as it was, or fixed).
no_leftovers() {
  local left
  left=$(find . \( -name '.*.tofulint-*' -o -name '.*.hcl2cue-*' \) | head -5)
  if [[ -n $left ]]; then
    echo "temporary files left behind: $left" >&2
    exit 1
  fi
  for m in 0 1 2 1000 2499; do
    if ! cmp -s "tree/m$m/main.tf" "orig/m$m/main.tf" && ! cmp -s "tree/m$m/main.tf" fixed.tf; then
      echo "tree/m$m/main.tf is neither the original nor the fixed file" >&2
      exit 1
    fi
  done
}

for sig in INT TERM; do
  want=130
  [[ $sig == TERM ]] && want=143
  interrupted "$sig" "$want" "$TOFULINT" --format json tree/...
  interrupted "$sig" "$want" "$TOFULINT" --fix --format json tree/...
  no_leftovers
  rm -rf tree && cp -r orig tree
  interrupted "$sig" "$want" "$HCL2CUE" convert -o out tree/...
  no_leftovers
  rm -rf out
  interrupted "$sig" "$want" "$HCL2CUE" plan --max-instances 100000 --json big
  interrupted "$sig" "$want" "$HCL2CUE" verify --max-instances 100000 big
  (cd mwm && interrupted "$sig" "$want" "$HCL2CUE" plan --middleware .)
  sleep 0.2
  if pgrep -f "sleep $nap" > /dev/null || pgrep -f "mw.sh $nap" > /dev/null; then
    pkill -f "$nap" || true
    echo "the middleware (or what it started) outlived the interrupted plan" >&2
    exit 1
  fi
done
echo "no temporary file, half-written file or middleware process left"
