# Issue 35 item 5: a named pipe where a module file is read (a FIFO named
# main.tf, or one that file() or templatefile() reads) is a diagnostic
# naming it, never a wait for a writer that never comes.
set -euo pipefail
source "$HOSTILE_LIB"

mkdir m
mkfifo m/main.tf
printf 'output "o" {\n  value = 1\n}\n' > m/ok.tf
timeout 5 "$TOFULINT" m > out.txt 2>&1 || status=$?
[[ ${status:-0} -eq 1 ]] || { echo "tofulint on a FIFO main.tf exited ${status:-0}, want 1" >&2; cat out.txt >&2; exit 1; }
expect_grep 'm/main.tf is a named pipe, not a regular file' out.txt
expect_status 2 timeout 5 "$HCL2CUE" convert m > out.txt 2> err.txt
expect_grep 'm/main.tf is a named pipe, not a regular file' err.txt
expect_status 1 timeout 5 "$HCL2CUE" plan m > out.txt 2> err.txt
expect_grep 'm/main.tf is a named pipe, not a regular file' err.txt
expect_status 2 timeout 5 "$HCL2CUE" verify m > out.txt 2> err.txt
expect_grep 'm/main.tf is a named pipe, not a regular file' err.txt
echo "a FIFO main.tf: tofulint 1, convert 2, plan 1, verify 2, each naming it"

mkdir f
mkfifo f/p
cat > f/main.tf <<'TF'
output "file" {
  value = file("${path.module}/p")
}

output "template" {
  value = templatefile("${path.module}/p", {})
}
TF
expect_status 1 timeout 5 "$HCL2CUE" convert f > out.txt 2> err.txt
expect_grep '/p" is a named pipe, not a regular file' err.txt
expect_status 1 timeout 5 "$HCL2CUE" plan f > out.txt 2> err.txt
expect_grep 'failed to read file: "\./p" is a named pipe, not a regular file' err.txt
[[ $(grep -c 'is a named pipe' err.txt) -eq 2 ]] || { echo "plan did not report both reads" >&2; cat err.txt >&2; exit 1; }
expect_status 0 timeout 5 "$TOFULINT" f > out.txt 2>&1
echo "file() and templatefile() of a FIFO: convert 1, plan 1, each naming it; tofulint 0 (it reads no files)"

mkdir v
printf 'variable "x" {\n  default = 1\n}\n' > v/main.tf
mkfifo v/terraform.tfvars v/.tofulint.hcl
expect_status 1 timeout 5 "$HCL2CUE" plan v > out.txt 2> err.txt
expect_grep 'v/terraform.tfvars is a named pipe, not a regular file' err.txt
expect_status 2 timeout 5 "$TOFULINT" v > out.txt 2> err.txt
expect_grep 'v/.tofulint.hcl is a named pipe, not a regular file' err.txt
echo "a FIFO terraform.tfvars (plan 1) and .tofulint.hcl (tofulint 2): named"
