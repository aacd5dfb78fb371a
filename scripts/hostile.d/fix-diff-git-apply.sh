# Issue 35 item 12: --diff with an absolute PATH writes paths that
# `git apply --check` takes, inside and outside the current directory.
set -euo pipefail
source "$HOSTILE_LIB"

mkdir -p repo/m
cat > repo/m/main.tf <<'TF'
variable "x" {
  type = list(string)
}

output "o" {
  value = "${var.x}" # keep this comment
}
TF
cp repo/m/main.tf want.tf
sed -i 's/"\${var.x}"/var.x/' want.tf

cd repo
git init -q
expect_status 1 "$TOFULINT" --diff "$PWD/m" > inside.patch
expect_grep '^--- a/m/main.tf$' inside.patch
git apply --check inside.patch
git apply inside.patch
cmp m/main.tf ../want.tf
echo "absolute path inside the current directory: git apply takes the diff"

cd ..
# Back to the module before the fix.
sed -i 's/^  value = var.x/  value = "${var.x}"/' repo/m/main.tf
mkdir elsewhere && cd elsewhere
expect_status 1 "$TOFULINT" --diff "$(dirname "$PWD")/repo/m" > outside.patch
expect_grep '^--- a/[^/].*/repo/m/main.tf$' outside.patch
(cd / && git apply --check "$OLDPWD/outside.patch")
echo "absolute path outside the current directory: git apply takes the diff from /"
