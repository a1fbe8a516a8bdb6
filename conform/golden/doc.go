// Package golden compares canonical transcripts with golden files, as a
// thin wrapper over goldie v2 that works where no *testing.T exists (Ginkgo
// specs, `airwire conform`).
//
// It owns the golden layout and the failure text. A golden for name N (e.g.
// "bash-foreground/air") is <dir>/N.golden, the path goldie's
// GoldenFileName gives with WithFixtureDir(dir) and the default suffix.
// Match writes the file first when updating (goldie's -update flag, or
// GOLDIE_UPDATE, or WithUpdate) and then compares the bytes exactly; a
// mismatch is a *MismatchError whose text is a short diff (brief.go) plus
// a summary of the first difference. The summary aligns the expected and
// actual lines along a longest common subsequence first (align.go), and the
// elements of arrays inside a line the same way, so that it says what
// happened: a line or element missing, extra, moved (to which line or
// index), or changed at a JSON path, never a comparison of two unrelated
// lines.
//
// It never normalizes (the caller hands it canonical text), never edits a
// golden other than by rewriting it whole on update, and never deletes
// goldens (no -clean: on a filtered run it would delete what the run did
// not rewrite). Contract: STYLE.md §22–23.
package golden
