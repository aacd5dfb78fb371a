# Issue 35 item 13: a local module source that leads out of the root
# module's repository (the git work tree that holds it) is an error naming
# the source and --allow-read; nothing outside is read unless the user
# names it: with --allow-read DIR, or as DIR/... among the paths.
set -euo pipefail
source "$HOSTILE_LIB"

mkdir -p repo/.git repo/root outside
echo 'ref: refs/heads/main' > repo/.git/HEAD
echo 's3cret' > outside/secret.txt
cat > outside/main.tf <<'TF'
output "secret" {
  value = file("${path.module}/secret.txt")
}
TF
cat > repo/root/main.tf <<'TF'
module "x" {
  source = "../../outside"
}

output "o" {
  value = module.x.secret
}
TF

expect_status 1 timeout 10 "$HCL2CUE" plan repo/root > out.txt 2> err.txt
expect_grep 'Module source outside the repository' err.txt
expect_grep 'allow-read /.*/outside to read it' err.txt
if grep -q s3cret out.txt err.txt; then echo "plan showed the file outside the repository" >&2; exit 1; fi
expect_status 2 timeout 10 "$HCL2CUE" verify repo/root > out.txt 2> err.txt
expect_grep 'Module source outside the repository' err.txt
expect_status 1 timeout 10 "$HCL2CUE" convert -o conv repo/root > out.txt 2> err.txt
expect_grep 'Module source outside the repository' err.txt
[[ ! -e conv ]] || { echo "convert wrote conv" >&2; exit 1; }
echo "a source out of the repository: plan 1, verify 2, convert 1, naming --allow-read; nothing read"

expect_status 0 timeout 10 "$HCL2CUE" plan --allow-read outside repo/root > out.txt 2> err.txt
expect_grep 's3cret' out.txt
echo "--allow-read outside: planned, the file read"
