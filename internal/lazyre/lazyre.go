// Package lazyre is a regular expression compiled on its first use, for
// package-level expressions.
//
// A package-level regexp.MustCompile runs when the program starts, for
// every command of the binary: `airwire agent` compiled some seventy
// expressions of the conformance suite, the validator and every tool
// renderer before it read its first request, and kept them in its heap.
// A *Regexp compiles on the first call of one of its methods, once; the
// methods are regexp.Regexp's. An expression that does not compile
// panics on that first use, as MustCompile would at start: every
// expression of the repository is compiled by TestEveryExpressionCompiles.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use. It is safe for
// concurrent use.
//
// A package-level `var x = New(expr)` is static data: the compiler inlines
// New into a composite literal, so the package gets no init code for it
// (an init function runs at every start and maps its page of the binary).
type Regexp struct {
	expr     string
	once     sync.Once
	compiled *regexp.Regexp
}

// New is the expression expr, not yet compiled.
func New(expr string) *Regexp {
	return &Regexp{expr: expr}
}

// re compiles the expression on the first call.
func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() { r.compiled = regexp.MustCompile(r.expr) })
	return r.compiled
}

// Compiled is the compiled expression (compiling it if need be).
func (r *Regexp) Compiled() *regexp.Regexp { return r.re() }

// String is the source text of the expression.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool       { return r.re().Match(b) }
func (r *Regexp) FindString(s string) string {
	return r.re().FindString(s)
}
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }
func (r *Regexp) FindAll(b []byte, n int) [][]byte       { return r.re().FindAll(b, n) }
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.re().FindAllSubmatch(b, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.re().FindAllStringIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.re().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.re().ReplaceAll(src, repl) }
func (r *Regexp) SubexpNames() []string              { return r.re().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int        { return r.re().SubexpIndex(name) }
