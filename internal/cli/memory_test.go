package cli

import "testing"

func TestByteSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		text string
	}{
		{"512MiB", 512 << 20, "512MiB"},
		{"4G", 4 << 30, "4GiB"},
		{"1536 MiB", 1536 << 20, "1536MiB"},
		{"1000", 1000, "1000"},
		{"0", 0, "0"},
	} {
		var b byteSize
		if err := b.Set(c.in); err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if uint64(b) != c.want || b.String() != c.text {
			t.Errorf("%q: %d (%s), want %d (%s)", c.in, uint64(b), b.String(), c.want, c.text)
		}
	}
	for _, bad := range []string{"", "lots", "-1", "1.5GiB", "99999999999TiB"} {
		var b byteSize
		if err := b.Set(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if d := defaultMaxMemory(); d == 0 || d > 8<<30 {
		t.Errorf("default budget %d: want 0 < d <= 8GiB", d)
	}
}
