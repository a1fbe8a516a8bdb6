// Package mdtext makes text safe to put into Markdown the agent writes.
package mdtext

import "github.com/airwire/airwire/internal/lazyre"

var (
	specials   = lazyre.New("([\\\\`*_\\[\\]<>|])")
	lineBreaks = lazyre.New(`[\r\n]+`)
)

// Escape escapes the characters Markdown would read (\ ` * _ [ ] < > |)
// and puts line breaks on one line, as the reference adapter does.
func Escape(s string) string {
	return lineBreaks.ReplaceAllString(specials.ReplaceAllString(s, `\$1`), " ")
}
