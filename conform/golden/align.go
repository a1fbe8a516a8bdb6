package golden

import (
	"encoding/json"
	"strings"
)

// An op is one step of an alignment of two sequences: both sides keep an
// element (same), only the expected side has it (del), or only the actual
// side (ins). w and g are the positions on each side (0-based) where the
// step happens.
type op struct {
	kind opKind
	w, g int
}

type opKind int

const (
	same opKind = iota
	del
	ins
)

// align aligns want and got along a longest common subsequence: equal
// elements that keep their relative order are matched, every other element
// is a del (want only) or an ins (got only). At a tie, dels come before
// inss.
func align(want, got []string) []op {
	n, m := len(want), len(got)
	// lcs[i][j] is the LCS length of want[i:] and got[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			ops = append(ops, op{same, i, j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{del, i, j})
			i++
		default:
			ops = append(ops, op{ins, i, j})
			j++
		}
	}
	return ops
}

// hunk is the first run of unmatched elements of an alignment: dels and inss
// hold its ops in order. An element of the hunk whose text is unmatched on
// the other side too (delAt, insAt) has moved.
type hunk struct {
	dels, inss []op
	// delAt and insAt give, for every unmatched element's text, its first
	// position among the dels (want) and the inss (got) of the whole
	// alignment.
	delAt, insAt map[string]int
}

// firstHunk returns the first run of dels and inss of ops (nil when the
// sides are equal).
func firstHunk(ops []op, want, got []string) *hunk {
	h := &hunk{delAt: map[string]int{}, insAt: map[string]int{}}
	started, ended := false, false
	for _, o := range ops {
		switch o.kind {
		case same:
			ended = ended || started
			continue
		case del:
			if _, ok := h.delAt[want[o.w]]; !ok {
				h.delAt[want[o.w]] = o.w
			}
		case ins:
			if _, ok := h.insAt[got[o.g]]; !ok {
				h.insAt[got[o.g]] = o.g
			}
		}
		if ended {
			continue
		}
		started = true
		if o.kind == del {
			h.dels = append(h.dels, o)
		} else {
			h.inss = append(h.inss, o)
		}
	}
	if !started {
		return nil
	}
	return h
}

// lineKey is what makes two transcript lines the same message with other
// content: the tag, the method, the id, the session update's kind, the CLI
// frame's type and subtype.
func lineKey(line string) string {
	i := strings.IndexAny(line, "{[")
	if i < 0 {
		return line
	}
	var k struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Type   string          `json:"type"`
		Params struct {
			Update struct{ SessionUpdate string }
		}
		Request struct{ Subtype string }
	}
	if json.Unmarshal([]byte(line[i:]), &k) != nil {
		return line
	}
	return strings.Join([]string{strings.TrimSpace(line[:i]), k.Method, string(k.ID), k.Params.Update.SessionUpdate, k.Type, k.Request.Subtype}, "\x00")
}
