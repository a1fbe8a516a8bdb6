package wirediff

import "fmt"

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
// pairs, messages of the same method pair up as changed; a leftover old
// message that equals a leftover new one was moved; the rest is missing or
// extra.
func Align(old, new []Message) []Op {
	var ops []Op
	var lostOld, lostNew []int
	pi, pj := 0, 0
	for _, m := range lcs(old, new) {
		ops, lostOld, lostNew = pairGap(ops, lostOld, lostNew, old, new, pi, m[0], pj, m[1])
		ops = append(ops, Op{Kind: OpPair, Old: &old[m[0]], New: &new[m[1]]})
		pi, pj = m[0]+1, m[1]+1
	}
	ops, lostOld, lostNew = pairGap(ops, lostOld, lostNew, old, new, pi, len(old), pj, len(new))
	return append(ops, leftovers(old, new, lostOld, lostNew)...)
}

// lcs returns the index pairs of a longest common subsequence of the
// messages' kinds.
func lcs(a, b []Message) [][2]int {
	ka, kb := kinds(a, fineKind), kinds(b, fineKind)
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

// pairGap pairs old[i0:i1] with new[j0:j1] by coarse kind, in order, and
// records what stays unpaired.
func pairGap(ops []Op, lostOld, lostNew []int, old, new []Message, i0, i1, j0, j1 int) ([]Op, []int, []int) {
	j := j0
	for i := i0; i < i1; i++ {
		k := j
		for k < j1 && coarseKind(new[k]) != coarseKind(old[i]) {
			k++
		}
		if k == j1 {
			lostOld = append(lostOld, i)
			continue
		}
		for ; j < k; j++ {
			lostNew = append(lostNew, j)
		}
		ops = append(ops, Op{Kind: OpPair, Old: &old[i], New: &new[k]})
		j = k + 1
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
// response.
func fineKind(m Message) string {
	obj, _ := m.Value.(map[string]any)
	if method, ok := obj["method"].(string); ok {
		return fmt.Sprintf("%s|%s|%s", m.Tag, method, sessionUpdateOf(obj))
	}
	_, isErr := obj["error"]
	return fmt.Sprintf("%s|response|%v|%v", m.Tag, obj["id"], isErr)
}

// coarseKind is a message's kind for pairing a changed message: tag and
// method, or tag and response id.
func coarseKind(m Message) string {
	obj, _ := m.Value.(map[string]any)
	if method, ok := obj["method"].(string); ok {
		return m.Tag + "|" + method
	}
	return fmt.Sprintf("%s|response|%v", m.Tag, obj["id"])
}

func sessionUpdateOf(obj map[string]any) string {
	params, _ := obj["params"].(map[string]any)
	update, _ := params["update"].(map[string]any)
	s, _ := update["sessionUpdate"].(string)
	return s
}
