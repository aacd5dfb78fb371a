# Issue 35 item 8: --fix keeps a file's metadata: a symbolic link stays a
# link and its target is fixed; a hard link stays one (the file is edited
# in place, and tofulint says so); owner, group and the full mode stay.
set -euo pipefail
source "$HOSTILE_LIB"

module() {
  printf 'variable "x" {\n  type = list(string)\n}\noutput "o" {\n  value = "${var.x}"\n}\n'
}
mkdir -p real link hard mode
module > real/main.tf
ln -s ../real/main.tf link/main.tf
module > hard/main.tf
ln hard/main.tf hard-elsewhere.tf
module > mode/main.tf
chmod 6751 mode/main.tf
chmod +t mode/main.tf
if [[ $(id -u) -eq 0 ]]; then chown 1234:2345 mode/main.tf; chmod 7751 mode/main.tf; fi
want_mode=$(stat -c '%a %u %g' mode/main.tf)

expect_status 0 "$TOFULINT" --fix --format json link hard mode > out.json 2> err.txt
expect_grep '^tofulint: fixed 3 files$' err.txt
expect_grep 'hard/main.tf has 2 hard links: edited in place' err.txt

[[ -L link/main.tf ]] || { echo "link/main.tf is no longer a symbolic link" >&2; exit 1; }
grep -q 'value = var.x' real/main.tf || { echo "the link's target was not fixed" >&2; exit 1; }
[[ $(stat -c %i hard/main.tf) == $(stat -c %i hard-elsewhere.tf) ]] || { echo "the hard link is broken" >&2; exit 1; }
grep -q 'value = var.x' hard-elsewhere.tf || { echo "the other hard link does not see the fix" >&2; exit 1; }
got_mode=$(stat -c '%a %u %g' mode/main.tf)
[[ $got_mode == "$want_mode" ]] || { echo "mode, owner, group: $got_mode after --fix, want $want_mode" >&2; exit 1; }
echo "symlink kept and target fixed; hard link kept; mode, owner and group kept ($want_mode)"
