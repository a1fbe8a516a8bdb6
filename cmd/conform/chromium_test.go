package conform

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromium runs Debian's headless Chromium on page with args, as root can
// (no sandbox) and without reaching the network, and returns its stdout.
// The test is skipped when no chromium is installed.
func chromium(t *testing.T, page string, args ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (Debian package chromium): the page is not opened in a browser")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--force-color-profile=srgb",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir(), "--window-size=1400,1000"}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return out
}

// checkPageInChromium opens the HTML report in headless Chromium: its text
// (after the page's script ran) holds want, the page says its first
// difference is on screen, and a screenshot shows the page with the
// highlighted (differing) line's colour in the first screenful.
func checkPageInChromium(t *testing.T, page, want string) {
	t.Helper()
	dom := string(chromium(t, page, "--dump-dom"))
	if !strings.Contains(dom, want) {
		t.Errorf("the page's DOM lacks %q", want)
	}
	if !strings.Contains(dom, `data-first-diff-in-view="true"`) {
		t.Errorf("the page does not report its first difference on screen")
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	chromium(t, page, "--screenshot="+shot)
	highlighted, colours := screenshotStats(t, shot)
	if colours < 50 {
		t.Errorf("the screenshot has %d colours: an empty page?", colours)
	}
	if highlighted < 2000 {
		t.Errorf("the screenshot shows %d pixels of the differing lines' colour (#ffd9d9): the highlighted line is not in view", highlighted)
	}
}

// screenshotStats counts the pixels of the differing lines' background
// (#ffd9d9) and the distinct colours of a PNG.
func screenshotStats(t *testing.T, path string) (highlighted, colours int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			seen[r<<16|g<<8|bl] = true
			if r == 0xff && g == 0xd9 && bl == 0xd9 {
				highlighted++
			}
		}
	}
	return highlighted, len(seen)
}
