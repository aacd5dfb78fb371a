package config

import "testing"

func TestCommonDir(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"/x/y/examples/basic", "/x/y", "/x/y"},
		{"/x/y/examples/basic", "/x/y/modules/net", "/x/y"},
		{"/x/y", "/x/y", "/x/y"},
		{"/x/ya", "/x/yb", "/x"},
		{"/a", "/b", "/"},
	} {
		if got := commonDir(c.a, c.b); got != c.want {
			t.Errorf("commonDir(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}
