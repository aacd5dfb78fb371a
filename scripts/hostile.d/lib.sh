# Helpers for scripts/hostile cases; source "$HOSTILE_LIB".

# expect_status WANT CMD...: run CMD, fail unless it exits WANT.
expect_status() {
  local want=$1; shift
  local got=0
  "$@" || got=$?
  if [[ $got -ne $want ]]; then
    echo "'$*' exited with status $got, want $want" >&2
    exit 1
  fi
}

# expect_grep PATTERN FILE: fail unless FILE has a line matching PATTERN.
expect_grep() {
  grep -Eq -- "$1" "$2" || { echo "$2 has no line matching '$1':" >&2; head -20 "$2" >&2; exit 1; }
}
