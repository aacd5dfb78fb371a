# Issue 35 item 15: convert -o into an earlier output keeps the files the
# user added there, and refuses to overwrite one of them.
set -euo pipefail
source "$HOSTILE_LIB"

mkdir m
printf 'variable "a" {\n  default = 1\n}\noutput "o" {\n  value = var.a\n}\n' > m/main.tf
expect_status 0 "$HCL2CUE" convert -o out m
echo "mine" > out/NOTES.md
mkdir out/extra && echo "mine too" > out/extra/x.txt
expect_status 0 "$HCL2CUE" convert -o out m 2> err.txt
[[ $(cat out/NOTES.md) == mine && $(cat out/extra/x.txt) == "mine too" ]] || { echo "convert -o removed the user's files" >&2; exit 1; }
[[ -f out/main.cue ]] || { echo "out/main.cue is missing" >&2; exit 1; }
echo "a second convert -o kept NOTES.md and extra/x.txt"

printf 'output "p" {\n  value = 2\n}\n' > m/more.tf
echo "package m // mine" > out/more.cue
expect_status 2 "$HCL2CUE" convert -o out m 2> err.txt
expect_grep 'out/more.cue was not written by hcl2cue convert, and the conversion writes a file of that name' err.txt
[[ $(cat out/more.cue) == "package m // mine" ]] || { echo "the user's more.cue was overwritten" >&2; exit 1; }
echo "a user's file where convert now writes one: exit 2, named, kept"
