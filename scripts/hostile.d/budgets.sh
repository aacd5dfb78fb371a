# Issue 35 item 14: inputs that would make a plan huge stop at a budget,
# with an error naming the expression, in bounded time and memory; the
# flags raise the budgets.
set -euo pipefail
source "$HOSTILE_LIB"

mkdir ranges
cat > ranges/main.tf <<'TF'
locals {
  cube = [for i in range(1000) : [for j in range(1000) : range(1000)]]
}

output "n" {
  value = length(local.cube)
}
TF
expect_status 1 timeout 20 "$HCL2CUE" plan ranges > out.txt 2> err.txt
expect_grep 'main.tf line 2' err.txt
expect_grep 'more than 1000000 collection elements' err.txt
echo "three nested range(1000): plan 1, at the expression, naming --max-values"

mkdir count
cat > count/main.tf <<'TF'
resource "terraform_data" "a" {
  count = 1000000000
}
TF
expect_status 1 timeout 10 "$HCL2CUE" plan count > out.txt 2> err.txt
expect_grep 'more than the 20000 instances a plan may make' err.txt
expect_status 2 timeout 10 "$HCL2CUE" verify count > out.txt 2> err.txt
expect_grep 'more than the 20000 instances a plan may make' err.txt
echo "count = 1000000000: plan 1, verify 2, at the count, naming --max-instances"

mkdir some
cat > some/main.tf <<'TF'
resource "terraform_data" "a" {
  count = 50
}
TF
expect_status 1 timeout 10 "$HCL2CUE" plan --max-instances 10 some > out.txt 2> err.txt
expect_grep 'more than the 10 instances a plan may make' err.txt
expect_status 0 timeout 10 "$HCL2CUE" plan --max-instances 50 some > out.txt 2> err.txt
echo "--max-instances: 10 refuses 50 instances, 50 plans them"

expect_status 2 timeout 20 "$HCL2CUE" verify ranges > out.txt 2> err.txt
expect_grep 'more than 1000000 collection elements' err.txt
echo "three nested range(1000): verify 2, naming --max-values"

# The memory budget stops what the planners' budgets do not see: a CUE
# form edited by hand to unroll a count of a hundred million.
mkdir small
cat > small/main.tf <<'TF'
variable "n" {
  type    = number
  default = 3
}

resource "terraform_data" "a" {
  count = var.n
}
TF
"$HCL2CUE" convert -o small-cue small > /dev/null
sed -i 's/\*3 | number/*100000000 | number/' small-cue/main.cue
grep -q '100000000' small-cue/main.cue || { echo "the edit did not apply" >&2; exit 1; }
expect_status 2 timeout 30 "$HCL2CUE" plan --lang cue --source small --max-memory 512MiB small-cue > out.txt 2> err.txt
expect_grep 'memory in use passed the budget of 512MiB \(--max-memory\)' err.txt
echo "a CUE count of 100000000: plan --lang cue 2 at --max-memory 512MiB"

# Documents that decoders recurse into: refused before decoding.
mkdir decode
python3 -c "print('[' * 1000000 + ']' * 1000000)" > decode/deep.json
cat > decode/main.tf <<'TF'
output "json" {
  value = length(jsondecode(file("${path.module}/deep.json")))
}

output "yaml" {
  value = length(yamldecode(file("${path.module}/deep.json")))
}
TF
expect_status 1 timeout 10 "$HCL2CUE" plan decode > out.txt 2> err.txt
expect_grep 'nests collections more than 256 levels deep' err.txt
[[ $(grep -c 'nests collections more than 256 levels deep' err.txt) -eq 2 ]] || { echo "not both decoders refused" >&2; exit 1; }
echo "a million nested lists: jsondecode and yamldecode refused (yamldecode ran over 10 minutes before)"

# for expressions over a variable call no function: their nesting counts.
mkdir fors
python3 - <<'PY'
xs = ", ".join(str(i) for i in range(1000))
open("fors/main.tf", "w").write(f'''variable "big" {{
  default = [{xs}]
}}

locals {{
  cube = [for a in var.big : [for b in var.big : [for c in var.big : c]]]
}}

output "n" {{
  value = length(local.cube)
}}
''')
PY
expect_status 1 timeout 10 "$HCL2CUE" plan fors > out.txt 2> err.txt
expect_grep 'main.tf line 6' err.txt
expect_grep 'would make more than 1000000 elements in all' err.txt
echo "three nested for over a variable of 1000: plan 1 at the expression, naming --max-values"
