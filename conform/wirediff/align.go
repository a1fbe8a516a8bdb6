package wirediff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// OpKind is what alignment made of a message.
type OpKind int

const (
	// OpPair is a message on both sides (equal or changed).
	OpPair OpKind = iota
	// OpMissing is an old message with no counterpart.
	OpMissing
	// OpExtra is a new message with no counterpart.
	OpExtra
	// OpMoved is a message sent unchanged at another place.
	OpMoved
)

// Op is one step of an alignment.
type Op struct {
	Kind     OpKind
	Old, New *Message
}

// Align lines up the messages of one session. A longest common
// subsequence over each message's kind (tag, method, sessionUpdate, or the
// id and outcome of a response) pairs what stayed in order; between two
// pairs, a longest common subsequence of coarser kinds (tag and method)
// pairs messages that changed; a leftover old message that equals a
// leftover new one was moved; the rest is missing or extra.
//
// The alignment does not depend on which side is old: Align(new, old) is
// the mirror of Align(old, new), so both directions count the same
// findings.
func Align(old, new []Message) []Op {
	if !inOrder(old, new) {
		return mirror(align(new, old))
	}
	return align(old, new)
}

func align(old, new []Message) []Op {
	var ops []Op
	var lostOld, lostNew []int
	pi, pj := 0, 0
	for _, m := range lcs(old, new, fineKind) {
		ops, lostOld, lostNew = pairGap(ops, lostOld, lostNew, old, new, pi, m[0], pj, m[1])
		ops = append(ops, Op{Kind: OpPair, Old: &old[m[0]], New: &new[m[1]]})
		pi, pj = m[0]+1, m[1]+1
	}
	ops, lostOld, lostNew = pairGap(ops, lostOld, lostNew, old, new, pi, len(old), pj, len(new))
	return append(ops, leftovers(old, new, lostOld, lostNew)...)
}

// inOrder picks the side an alignment is computed from: a before b in the
// order of their messages' text (tag and JSON), then their length.
func inOrder(a, b []Message) bool {
	for i := 0; i < min(len(a), len(b)); i++ {
		if c := strings.Compare(a[i].Tag, b[i].Tag); c != 0 {
			return c < 0
		}
		if c := strings.Compare(a[i].Raw, b[i].Raw); c != 0 {
			return c < 0
		}
	}
	return len(a) <= len(b)
}

// mirror swaps the sides of an alignment: missing becomes extra. The
// leftovers keep align's order: moved and missing, then extra.
func mirror(ops []Op) []Op {
	for i := range ops {
		ops[i].Old, ops[i].New = ops[i].New, ops[i].Old
		switch ops[i].Kind {
		case OpMissing:
			ops[i].Kind = OpExtra
		case OpExtra:
			ops[i].Kind = OpMissing
		}
	}
	extraLast := func(o Op) int {
		if o.Kind == OpExtra {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(ops, func(a, b Op) int { return cmp.Compare(extraLast(a), extraLast(b)) })
	return ops
}

// lcs returns the index pairs of a longest common subsequence of the
// messages' kinds.
func lcs(a, b []Message, kind func(Message) string) [][2]int {
	ka, kb := kinds(a, kind), kinds(b, kind)
	n, m := len(a), len(b)
	dp := make([][]int, n+1)
	for i := range dp {
		dp[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ka[i] == kb[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case ka[i] == kb[j]:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case dp[i+1][j] >= dp[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// pairGap pairs old[i0:i1] with new[j0:j1] by a longest common
// subsequence of their coarse kinds and records what stays unpaired.
func pairGap(ops []Op, lostOld, lostNew []int, old, new []Message, i0, i1, j0, j1 int) ([]Op, []int, []int) {
	i, j := i0, j0
	for _, m := range lcs(old[i0:i1], new[j0:j1], coarseKind) {
		for ; i < i0+m[0]; i++ {
			lostOld = append(lostOld, i)
		}
		for ; j < j0+m[1]; j++ {
			lostNew = append(lostNew, j)
		}
		ops = append(ops, Op{Kind: OpPair, Old: &old[i], New: &new[j]})
		i, j = i+1, j+1
	}
	for ; i < i1; i++ {
		lostOld = append(lostOld, i)
	}
	for ; j < j1; j++ {
		lostNew = append(lostNew, j)
	}
	return ops, lostOld, lostNew
}

// leftovers names each unpaired message moved, missing or extra.
func leftovers(old, new []Message, lostOld, lostNew []int) []Op {
	var ops []Op
	used := map[int]bool{}
	for _, i := range lostOld {
		moved := false
		for _, j := range lostNew {
			if !used[j] && old[i].Raw == new[j].Raw {
				used[j], moved = true, true
				ops = append(ops, Op{Kind: OpMoved, Old: &old[i], New: &new[j]})
				break
			}
		}
		if !moved {
			ops = append(ops, Op{Kind: OpMissing, Old: &old[i]})
		}
	}
	for _, j := range lostNew {
		if !used[j] {
			ops = append(ops, Op{Kind: OpExtra, New: &new[j]})
		}
	}
	return ops
}

func kinds(ms []Message, kind func(Message) string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = kind(m)
	}
	return out
}

// fineKind is a message's kind for alignment: tag, method and
// sessionUpdate for a request or notification; tag, id and outcome for a
// response; tag, type and request subtype for a CLI message (describe).
func fineKind(m Message) string {
	obj, _ := m.Value.(map[string]any)
	if method, ok := obj["method"].(string); ok {
		return fmt.Sprintf("%s|%s|%s", m.Tag, method, sessionUpdateOf(obj))
	}
	if !isJSONRPC(obj) {
		return m.Tag + "|" + describe(m)
	}
	_, isErr := obj["error"]
	return fmt.Sprintf("%s|response|%v|%v", m.Tag, obj["id"], isErr)
}

// coarseKind is a message's kind for pairing a changed message: tag and
// method, tag and response id, or tag and a CLI message's type.
func coarseKind(m Message) string {
	obj, _ := m.Value.(map[string]any)
	if method, ok := obj["method"].(string); ok {
		return m.Tag + "|" + method
	}
	if !isJSONRPC(obj) {
		typ, _ := obj["type"].(string)
		return m.Tag + "|" + typ
	}
	return fmt.Sprintf("%s|response|%v", m.Tag, obj["id"])
}

// isJSONRPC tells an ACP message from a CLI message or record.
func isJSONRPC(obj map[string]any) bool {
	_, ok := obj["jsonrpc"]
	return ok
}

func sessionUpdateOf(obj map[string]any) string {
	params, _ := obj["params"].(map[string]any)
	update, _ := params["update"].(map[string]any)
	s, _ := update["sessionUpdate"].(string)
	return s
}
