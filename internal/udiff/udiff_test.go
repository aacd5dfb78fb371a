package udiff

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	long := func(changed map[int]string) string {
		var b strings.Builder
		for i := 1; i <= 20; i++ {
			if s, ok := changed[i]; ok {
				b.WriteString(s + "\n")
				continue
			}
			b.WriteString("line " + string(rune('a'+i-1)) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name      string
		want, got string
		diff      string
	}{
		{name: "equal", want: "a\nb\n", got: "a\nb\n", diff: ""},
		{
			name: "one line changed in the middle",
			want: long(nil),
			got:  long(map[int]string{10: "CHANGED"}),
			diff: "@@ -7,7 +7,7 @@\n line g\n line h\n line i\n-line j\n+CHANGED\n line k\n line l\n line m\n",
		},
		{
			name: "two distant changes give two hunks",
			want: long(nil),
			got:  long(map[int]string{2: "X", 18: "Y"}),
			diff: "@@ -1,5 +1,5 @@\n line a\n-line b\n+X\n line c\n line d\n line e\n" +
				"@@ -15,6 +15,6 @@\n line o\n line p\n line q\n-line r\n+Y\n line s\n line t\n",
		},
		{
			name: "close changes share a hunk",
			want: long(nil),
			got:  long(map[int]string{5: "X", 11: "Y"}),
			diff: "@@ -2,13 +2,13 @@\n line b\n line c\n line d\n-line e\n+X\n line f\n line g\n line h\n line i\n line j\n-line k\n+Y\n line l\n line m\n line n\n",
		},
		{
			name: "lines added at the end",
			want: "a\n",
			got:  "a\nb\nc\n",
			diff: "@@ -1,1 +1,3 @@\n a\n+b\n+c\n",
		},
		{
			name: "everything removed",
			want: "a\nb\n",
			got:  "",
			diff: "@@ -1,2 +0,0 @@\n-a\n-b\n",
		},
		{
			name: "missing final newline",
			want: "a\n",
			got:  "a",
			diff: "@@ -1,1 +1,1 @@\n-a\n+a\n\\ No newline at end of file\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Hunks(tt.want, tt.got); got != tt.diff {
				t.Errorf("Hunks =\n%s\nwant\n%s", got, tt.diff)
			}
		})
	}
}

func TestUnified(t *testing.T) {
	if got := Unified("a/main.tf", "b/main.tf", "x\n", "x\n"); got != "" {
		t.Errorf("Unified of equal texts = %q, want \"\"", got)
	}
	got := Unified("a/main.tf", "b/main.tf", "a\nb\n", "a\nc\n")
	want := "--- a/main.tf\n+++ b/main.tf\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
	if got != want {
		t.Errorf("Unified = %q, want %q", got, want)
	}
}
