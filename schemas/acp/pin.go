package acp

import (
	"bufio"
	"bytes"
	_ "embed" // the PIN file
	"fmt"
	"strings"
)

// pinText is schemas/acp/PIN, built into the binary so that a fetched
// schema is checked against the same pin as `make deps` checks it.
//
//go:embed PIN
var pinText []byte

// Pin is a parsed schemas/acp/PIN: the npm package that holds the official
// schema and the sha256 of its tarball and of each schema file.
type Pin struct {
	// Package is the npm spec, e.g. "@agentclientprotocol/sdk@2.4.0".
	Package string
	// Tarball is the file `npm pack` writes, e.g. "agentclientprotocol-sdk-2.4.0.tgz".
	Tarball string
	// Sums maps the tarball's name and each file's path inside the package
	// ("schema/v1/schema.json") to its sha256, in hex.
	Sums map[string]string
}

// Pinned is the pin built into airwire.
func Pinned() Pin {
	p, err := ParsePin(pinText)
	if err != nil {
		panic("schemas/acp/PIN: " + err.Error()) // a broken build, caught by TestPinned
	}
	return p
}

// ParsePin reads the PIN format: "# comments", one "package <npm spec>"
// line, and "<sha256>  <name>" lines, one of them for the .tgz.
func ParsePin(b []byte) (Pin, error) {
	p := Pin{Sums: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "package":
			p.Package = f[1]
		case len(f) == 2 && len(f[0]) == 64:
			p.Sums[f[1]] = f[0]
			if strings.HasSuffix(f[1], ".tgz") {
				p.Tarball = f[1]
			}
		default:
			return Pin{}, fmt.Errorf("line %d: want \"package SPEC\" or \"SHA256  NAME\", got %q", n, line)
		}
	}
	if p.Package == "" || p.Tarball == "" {
		return Pin{}, fmt.Errorf("no package line or no .tgz sum")
	}
	for _, dir := range PackageDirs {
		for _, f := range []string{StableFile, UnstableFile} {
			if p.Sums[dir+"/"+f] == "" {
				return Pin{}, fmt.Errorf("no sum for %s/%s", dir, f)
			}
		}
	}
	return p, sc.Err()
}

// PackageDir is where the v1 schema files sit inside the npm package, and
// PackageDirV2 where those of the ACP v2 draft do.
const (
	PackageDir   = "schema/v1"
	PackageDirV2 = "schema/v2"
)

// PackageDirs are the schema directories of the package that the pin names
// and that are installed side by side: v1 in "v1", the v2 draft in "v2".
var PackageDirs = [...]string{PackageDir, PackageDirV2}
