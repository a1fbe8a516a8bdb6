// Package execwrap writes the scripts that stand in for an executable where
// a tool takes one executable path (an adapter's CLAUDE_CODE_EXECUTABLE)
// but must run a command with arguments of its own (airwire __cli-shim,
// airwire fake-cli): a /bin/sh script, `exec ARGV "$@"`, on Unix; a cmd.exe
// batch file, `ARGV %*`, on Windows. It never runs anything.
package execwrap

import (
	"fmt"
	"runtime"
	"strings"
)

// Name is the file name of a script called base on this platform.
func Name(base string) string { return NameFor(runtime.GOOS, base) }

// NameFor is the file name of a script called base on goos: Windows runs a
// batch file only by its .cmd (or .bat) extension.
func NameFor(goos, base string) string {
	if goos == "windows" {
		return base + ".cmd"
	}
	return base
}

// Script is the text of a script that runs argv followed by the script's
// own arguments, for this platform.
func Script(argv ...string) ([]byte, error) { return ScriptFor(runtime.GOOS, argv...) }

// ScriptFor is Script for goos. A batch file cannot hold a line break or a
// NUL in a word, so such an argv is an error on Windows. The arguments the
// script is run with reach the command through cmd.exe's %*, as their
// caller quoted them: cmd.exe acts on an & or | that falls outside quotes
// there (a quote escaped as \" ends cmd.exe's quoting), which the CLI
// flags an adapter passes do not hold.
func ScriptFor(goos string, argv ...string) ([]byte, error) {
	if goos != "windows" {
		var b strings.Builder
		b.WriteString("#!/bin/sh\nexec")
		for _, a := range argv {
			b.WriteString(" " + Quote(a))
		}
		b.WriteString(" \"$@\"\n")
		return []byte(b.String()), nil
	}
	// @echo off: cmd.exe would print each line before it runs it, into
	// the protocol on stdout. DisableDelayedExpansion keeps ! literal
	// whatever the registry says.
	var b strings.Builder
	b.WriteString("@echo off\r\nsetlocal DisableDelayedExpansion\r\n")
	for _, a := range argv {
		q, err := QuoteCmd(a)
		if err != nil {
			return nil, err
		}
		b.WriteString(q + " ")
	}
	b.WriteString("%*\r\n")
	return []byte(b.String()), nil
}

// Quote quotes s as one word for /bin/sh: in single quotes, each ' as '\”.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// QuoteCmd quotes s as one word on a line of a batch file, for the two
// parsers it meets: the program's own (CommandLineToArgvW rules: in double
// quotes, a quote as \", backslashes doubled only before a quote), then
// cmd.exe's before it, which runs first. For cmd.exe every special
// character, the quotes included, is escaped with ^, so cmd.exe never
// enters a quoted run in which a stray quote would make & or | live; % is
// doubled, as a batch file expands %NAME% before it reads any ^.
func QuoteCmd(s string) (string, error) {
	if strings.ContainsAny(s, "\r\n\x00") {
		return "", fmt.Errorf("%q cannot be a word of a batch file: it holds a line break or a NUL", s)
	}
	var b strings.Builder
	for _, c := range argvQuote(s) {
		switch c {
		case '%':
			b.WriteString("%%")
		case '^', '&', '|', '<', '>', '(', ')', '"', '!':
			b.WriteByte('^')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String(), nil
}

// argvQuote quotes s as one argument as CommandLineToArgvW (and the C
// runtime) split a command line: always in double quotes, so a space or
// an empty word stays one argument.
func argvQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for _, c := range s {
		switch c {
		case '\\':
			slashes++
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*slashes+1))
		default:
			b.WriteString(strings.Repeat(`\`, slashes))
		}
		slashes = 0
		b.WriteRune(c)
	}
	b.WriteString(strings.Repeat(`\`, 2*slashes))
	b.WriteByte('"')
	return b.String()
}
