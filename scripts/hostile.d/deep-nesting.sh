# Issue 35 item 3: 70,000 nested parentheses, lists, blocks or template
# interpolations (which overflow the HCL parsers' stack) are refused with a
# "Nesting too deep" diagnostic at the file, line and column of the first
# opener beyond 256 levels, by every command, within a second, with the
# status that the command gives a module that does not load.
set -euo pipefail
source "$HOSTILE_LIB"

python3 - <<'PY'
import os
n = 70000
cases = {
    "parens": 'output "o" {\n  value = ' + "(" * n + "1" + ")" * n + "\n}\n",
    "lists": 'output "o" {\n  value = ' + "[" * n + "]" * n + "\n}\n",
    "blocks": 'resource "r" "x" {\n' + "b {\n" * n + "}\n" * n + "}\n",
    "interpolations": 'output "o" {\n  value = "' + "${" * n + "1" + "}" * n + '"\n}\n',
}
for name, src in cases.items():
    os.makedirs(name)
    with open(name + "/main.tf", "w") as f:
        f.write(src)
PY

within_a_second() { # within_a_second WANT CMD...
  local start end
  start=$(date +%s%N)
  expect_status "$@"
  end=$(date +%s%N)
  if (( (end - start) / 1000000 > 1000 )); then
    echo "'${*:2}' took $(( (end - start) / 1000000 )) ms" >&2
    exit 1
  fi
}

for m in parens lists blocks interpolations; do
  within_a_second 1 "$TOFULINT" --format json "$m" > out.json 2> err.txt
  expect_grep '"summary": ?"Nesting too deep"' out.json
  within_a_second 2 "$HCL2CUE" convert "$m" > out.txt 2> err.txt
  expect_grep 'Nesting too deep' err.txt
  within_a_second 1 "$HCL2CUE" plan "$m" > out.txt 2> err.txt
  expect_grep 'Nesting too deep' err.txt
  expect_grep "on $m/main.tf line 2" err.txt
  within_a_second 1 "$HCL2CUE" plan --json "$m" > out.txt 2> err.txt
  within_a_second 2 "$HCL2CUE" verify "$m" > out.txt 2> err.txt
  expect_grep 'Nesting too deep' err.txt
  echo "$m: tofulint 1, convert 2, plan 1, verify 2, each within a second"
done

# The column: the 256th "(" after "  value = " on line 2.
"$TOFULINT" --format json parens | tr -d ' \n' > out.json || true
expect_grep '"start":\{"line":2,"column":266,' out.json
echo "parens: reported at line 2, column 266"

# --fix and a variables file go through the same check.
expect_status 1 "$TOFULINT" --fix parens > out.txt 2> err.txt
printf 'variable "v" {\n  default = 1\n}\n' > ok.tf && mkdir okm && mv ok.tf okm/main.tf
python3 -c 'print("v = " + "[" * 70000 + "]" * 70000)' > deep.tfvars
within_a_second 1 "$HCL2CUE" plan --var-file deep.tfvars okm > out.txt 2> err.txt
expect_grep 'Nesting too deep' err.txt
echo "--fix exits 1; a deep --var-file is refused too (plan exits 1)"

# Within the limit, nesting costs the CUE side linear time: tools/flow's
# search for tasks took twice as long for each level of nested lists (22
# levels: 22 s; 40: hours) before lists became tasks of their own.
mkdir deep40
python3 -c 'print("output \"o\" {\n  value = " + "[" * 40 + "1" + "]" * 40 + "\n}")' > deep40/main.tf
within_a_second 0 "$HCL2CUE" verify deep40 > out.txt 2> err.txt
expect_grep 'case defaults: equal' out.txt
echo "40 nested lists: verify 0 within a second"
