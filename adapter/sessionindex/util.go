package sessionindex

import (
	"bytes"
	"strings"
)

func indexByte(s string, b byte) int { return strings.IndexByte(s, b) }
func contains(s, sub string) bool    { return strings.Contains(s, sub) }

const historyMarker = `"parentUuid":`

// hasHistory reports whether a transcript holds conversation history (a
// record with a parentUuid) in its first 16 MB; past that it is assumed.
func hasHistory(path string) bool {
	f, st, err := openStat(path)
	if err != nil {
		return false
	}
	defer f.Close()
	const limit, chunk = 16 << 20, 1 << 20
	buf := make([]byte, chunk+len(historyMarker))
	carry := 0
	for off := int64(0); off < min(st.Size(), limit); {
		n, _ := f.ReadAt(buf[carry:carry+chunk], off)
		if n == 0 {
			return false
		}
		end := carry + n
		if bytes.Contains(buf[:end], []byte(historyMarker)) {
			return true
		}
		carry = min(len(historyMarker), end)
		copy(buf, buf[end-carry:end])
		off += int64(n)
	}
	return st.Size() > limit
}
