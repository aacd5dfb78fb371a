# Issue 35 item 4: 100 KB of random bytes gives thousands of diagnostics;
# text output must print them in linear time (it took over 60 s when the
# writer rescanned the file for each), showing at most 100 per file and
# counting the rest.
source "$HOSTILE_LIB"
set -euo pipefail
mkdir m
head -c 100000 /dev/urandom >m/main.tf
for cmd in "$TOFULINT m" "$HCL2CUE convert m -o out"; do
  start=$(date +%s%N)
  status=0
  $cmd >stdout 2>stderr || status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [[ $status -ne 0 ]] || { echo "'$cmd' exited 0 on random bytes" >&2; exit 1; }
  cat stdout stderr >all
  expect_grep '^Error: ' all
  expect_grep 'more diagnostics about .*main.tf not shown' all
  [[ $ms -lt 10000 ]] || { echo "'$cmd' took ${ms} ms" >&2; exit 1; }
  echo "'$cmd': exit $status in ${ms} ms, $(grep -c '^Error: ' all) diagnostics shown"
done
