// Package poll waits, for a bounded time, for a condition that no event
// announces: a file that grows, a state another goroutine changes.
package poll

import "time"

// Until calls done every step until it reports true or max has passed, and
// returns done's last answer. done is called at least once, at once.
func Until(max, step time.Duration, done func() bool) bool {
	deadline := time.Now().Add(max)
	for {
		if done() {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(min(step, time.Until(deadline)))
	}
}
