package conform

import (
	"bytes"
	"fmt"
	"image/png"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/cdptest"
)

// markColour is the background of the differing part of a changed line
// (td.line mark in the page's style).
const markColour = 0xffb000

// checkPageInChromium opens the HTML report in headless Chromium as a
// person would: its text holds want; the first screenful, not scrolled,
// shows the failing run's highlighted difference; and the filters by
// status, profile and section, and a click on a matrix cell, show the runs
// they should (checkFilters).
func checkPageInChromium(t *testing.T, page, want string) {
	t.Helper()
	p := cdptest.Start(t, cdptest.Bin(t))
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String()
	p.Open(u)
	var text, inView string
	p.Eval(`document.body.innerText`, &text)
	if !strings.Contains(text, want) {
		t.Errorf("the page's text lacks %q", want)
	}
	p.Eval(`document.body.dataset.firstDiffInView || ""`, &inView)
	if inView != "true" {
		t.Errorf("the page says its first difference is not on screen (%q)", inView)
	}
	marked, colours := screenshotStats(t, p.Screenshot())
	if colours < 50 {
		t.Errorf("the screenshot has %d colours: an empty page?", colours)
	}
	if marked < 300 {
		t.Errorf("the first screenful shows %d pixels of the highlighted difference (#%06x): it is not in view", marked, markColour)
	}
	checkFilters(t, p, u)
}

// checkFilters picks each filter with the keyboard, on a fresh page each
// time, and clicks a matrix cell, checking the runs the table shows. The
// page holds bash-foreground (air fails) and read, each under plain, zed
// and air.
func checkFilters(t *testing.T, p *cdptest.Page, u string) {
	t.Helper()
	for _, tc := range []struct {
		name string
		act  func()
		want []string
	}{
		{"no filter", func() {}, []string{"bash-foreground/air", "bash-foreground/plain", "bash-foreground/zed", "read/air", "read/plain", "read/zed"}},
		{"status fail", func() { p.Choose("#f-status", "f") }, []string{"bash-foreground/air"}},
		{"profile plain", func() { p.Choose("#f-profile", "p") }, []string{"bash-foreground/plain", "read/plain"}},
		{"section Zed conventions", func() { p.Choose("#f-section", "Zed") }, []string{"bash-foreground/air", "bash-foreground/plain", "bash-foreground/zed"}},
		{"matrix cell", func() { p.Click(`td.cell[data-section="Permission presentation"][data-profile="zed"]`) }, []string{"bash-foreground/zed"}},
	} {
		p.Open(u)
		tc.act()
		var got struct {
			Shown   string
			Visible []string
		}
		p.Eval(`({shown: document.getElementById("shown").textContent,
			visible: Array.from(document.querySelectorAll("#runs tr.run")).filter(function (e) { return !e.hidden && e.offsetParent; })
				.map(function (e) { return e.cells[0].textContent + "/" + e.dataset.profile; })})`, &got)
		slices.Sort(got.Visible)
		if !slices.Equal(got.Visible, tc.want) || got.Shown != fmt.Sprintf("%d of 6 runs shown", len(tc.want)) {
			t.Errorf("%s: the table shows %v (%q), want %v", tc.name, got.Visible, got.Shown, tc.want)
		}
	}
}

// screenshotStats counts the pixels of the highlighted difference
// (markColour) and the distinct colours of a PNG.
func screenshotStats(t *testing.T, shot []byte) (marked, colours int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := r>>8<<16 | g>>8<<8 | bl>>8
			seen[c] = true
			if c == markColour {
				marked++
			}
		}
	}
	return marked, len(seen)
}
