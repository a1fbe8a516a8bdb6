package toolcall

// lineOp is one step of a line edit script.
type lineOp struct {
	kind byte // ' ', '-' or '+'
	line string
}

// lineHunks diffs two line lists (Myers' O(ND) algorithm, deletions before
// insertions in a change) and groups the changes into hunks with
// patchContextLines of context; two changes closer than twice the context
// share a hunk, as in `git diff`.
func lineHunks(a, b []string) []patchHunk {
	ops := myers(a, b)
	var hunks []patchHunk
	i := 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-patchContextLines)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*patchContextLines {
				end = min(run, end+patchContextLines)
				break
			}
			end = run
		}
		hunks = append(hunks, makeHunk(ops, start, end))
		i = end
	}
	return hunks
}

// makeHunk builds the hunk of ops[start:end].
func makeHunk(ops []lineOp, start, end int) patchHunk {
	oldLine, newLine := 1, 1
	for _, op := range ops[:start] {
		if op.kind != '+' {
			oldLine++
		}
		if op.kind != '-' {
			newLine++
		}
	}
	h := patchHunk{oldStart: oldLine, newStart: newLine}
	for _, op := range ops[start:end] {
		if op.kind != '+' {
			h.oldLines++
		}
		if op.kind != '-' {
			h.newLines++
		}
		h.lines = appendPatchLine(h.lines, op.kind, op.line)
	}
	return h
}

// myers returns the shortest edit script from a to b. The common prefix
// and suffix are taken out first.
func myers(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []lineOp
	for _, l := range a[:pre] {
		ops = append(ops, lineOp{' ', l})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, lineOp{' ', l})
	}
	return ops
}

// middle is the Myers edit script of a and b, with each run of changes
// reordered to put its deletions first.
func middle(a, b []string) []lineOp {
	n, m := len(a), len(b)
	maxD := n + m
	if maxD == 0 {
		return nil
	}
	offset := maxD
	v := make([]int, 2*maxD+2)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return groupChanges(backtrack(trace, a, b, offset, d))
			}
		}
	}
	return nil
}

// backtrack walks the saved frontiers back from (len(a), len(b)).
func backtrack(trace [][]int, a, b []string, offset, d int) []lineOp {
	x, y := len(a), len(b)
	var rev []lineOp
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[offset+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, lineOp{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, lineOp{'+', b[y]})
		} else {
			x--
			rev = append(rev, lineOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, lineOp{' ', a[x]})
	}
	ops := make([]lineOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}

// groupChanges puts the deletions of each run of changes before its
// insertions.
func groupChanges(ops []lineOp) []lineOp {
	out := make([]lineOp, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		for _, op := range ops[i:j] {
			if op.kind == '-' {
				out = append(out, op)
			}
		}
		for _, op := range ops[i:j] {
			if op.kind == '+' {
				out = append(out, op)
			}
		}
		i = j
	}
	return out
}
