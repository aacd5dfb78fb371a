// Package workers runs a function over the indexes of a batch, a number
// of goroutines at a time: what tofulint's modules and hcl2cue's verify of
// a batch share.
package workers

import (
	"runtime"
	"sync"
)

// Each calls f(i) for every i from 0 to n-1, jobs calls at a time (0:
// runtime.GOMAXPROCS(0)), and returns when all have returned. f writes
// its result by index; calls for different indexes run concurrently.
func Each(n, jobs int, f func(i int)) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
