package workers

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, jobs := range []int{0, 1, 3, 100} {
		out := make([]int, 50)
		var running, most atomic.Int32
		Each(len(out), jobs, func(i int) {
			n := running.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			out[i] = i * i
			running.Add(-1)
		})
		for i, v := range out {
			if v != i*i {
				t.Fatalf("jobs %d: out[%d] = %d", jobs, i, v)
			}
		}
		if jobs > 0 && int(most.Load()) > jobs {
			t.Errorf("jobs %d: %d calls at once", jobs, most.Load())
		}
	}
	Each(0, 2, func(int) { t.Error("called for no index") })
}
