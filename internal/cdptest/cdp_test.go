package cdptest

import (
	"strings"
	"testing"
)

// Without chromium a browser test fails under CI=true, saying how to
// install it, and is skipped (with the same words) elsewhere.
func TestNoChromiumFailsUnderCI(t *testing.T) {
	for ci, wantFail := range map[string]bool{"true": true, "": false, "false": false} {
		fail, msg := NoChromium(ci)
		if fail != wantFail || !strings.Contains(msg, "make deps") || !strings.Contains(msg, "apt-get install -y chromium") {
			t.Errorf("CI=%q: fail %v, %q", ci, fail, msg)
		}
	}
}
