# Issue 35 item 9: kill -9 during --fix leaves every file whole (the old
# content or the fixed one), and the next --fix removes the temporary
# files that the killed runs left.
set -euo pipefail
source "$HOSTILE_LIB"

# 40 modules of 150 fixes each, a few hundred milliseconds of --fix.
for m in $(seq 1 40); do
  mkdir -p "tree/m$m"
  {
    echo 'variable "x" {'
    echo '  type = list(string)'
    echo '}'
    echo 'output "o" {'
    echo '  value = ['
    for i in $(seq 1 150); do echo "    \"\${var.x}\", # c$i"; done
    echo '  ]'
    echo '}'
  } > "tree/m$m/main.tf"
done
cp -r tree orig
sed 's/"\${var.x}"/var.x/' orig/m1/main.tf > fixed.tf

for i in $(seq 1 20); do
  "$TOFULINT" --fix --format json tree/... > /dev/null 2>&1 &
  pid=$!
  sleep "0.$((RANDOM % 40))"
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  # Every file is whole: as it was, or fixed.
  for m in $(seq 1 40); do
    if ! cmp -s "tree/m$m/main.tf" "orig/m$m/main.tf" && ! cmp -s "tree/m$m/main.tf" fixed.tf; then
      echo "after kill $i, tree/m$m/main.tf is neither the original nor the fixed file" >&2
      exit 1
    fi
  done
  # Undo the fixes so that the next run has work to do again.
  for m in $(seq 1 40); do cp "orig/m$m/main.tf" "tree/m$m/main.tf"; done
done
left=$(find tree -name '.*.tofulint-*' | wc -l)
echo "20 runs killed with SIGKILL: every file whole; $left temporary files left"

# Whatever they left, and a temporary file of a run that can no longer
# be running.
sh -c 'exit 0' & dead=$!
wait "$dead"
echo partial > "tree/m1/.main.tf.tofulint-$dead-1234"


expect_status 0 "$TOFULINT" --fix --format json tree/... > out.json 2> err.txt
expect_grep "removed tree/m1/\.main\.tf\.tofulint-$dead-1234, left by an earlier tofulint --fix \(process $dead\)" err.txt
expect_grep '^tofulint: fixed 40 files$' err.txt
if [[ -n $(find tree -name '.*.tofulint-*') ]]; then
  echo "temporary files remain after a full --fix:" >&2
  find tree -name '.*.tofulint-*' >&2
  exit 1
fi
for m in $(seq 1 40); do cmp "tree/m$m/main.tf" fixed.tf; done
echo "the next --fix removed them all and fixed every file"
