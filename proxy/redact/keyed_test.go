package redact

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"testing"
)

var tokenRE = regexp.MustCompile(`<redacted:[0-9a-f]{8}>`)

// Item 4 of issue 11: a token cannot be found from a dictionary of
// secrets: it is a keyed hash whose key exists only in the Redactor.
func TestTokenIsKeyed(t *testing.T) {
	sum := sha256.Sum256([]byte("hunter2"))
	unkeyed := "<redacted:" + hex.EncodeToString(sum[:4]) + ">" // f52fbd32
	frame := []byte(`{"params":{"password":"hunter2","again":{"password":"hunter2"}}}`)
	a, b := New(), New()
	_, outA, _, err := a.Frame(frame)
	if err != nil {
		t.Fatal(err)
	}
	_, outB, _, _ := b.Frame(frame)
	if bytes.Contains(outA, []byte(unkeyed)) {
		t.Fatalf("token is the unsalted sha256 of the secret: %s", outA)
	}
	toksA := tokenRE.FindAll(outA, -1)
	if len(toksA) != 2 || !bytes.Equal(toksA[0], toksA[1]) {
		t.Fatalf("one Redactor must give the same secret the same token: %s", outA)
	}
	if toksB := tokenRE.FindAll(outB, -1); len(toksB) != 2 || bytes.Equal(toksA[0], toksB[0]) {
		t.Fatalf("two Redactors (two journals) must not share a key: %s / %s", outA, outB)
	}
}
