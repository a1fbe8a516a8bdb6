package history

import "strings"

// Pasted content in a prompt. The CLI wraps text the user pasted as
//
//	<pasted_content id="ab12">
//	body
//	</pasted_content id="ab12">
//
// where the id is four lowercase hex digits. A title taken from a prompt
// (the first prompt of a session, as the SDK extracts it) shows the body
// in place of each such block.

const pastedOpen = `<pasted_content id="`

// isPastedID reports four lowercase hex digits.
func isPastedID(id string) bool {
	if len(id) != 4 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ExpandPastedContent replaces each complete `<pasted_content id="xxxx">`
// block of text by its body, dropping up to two newlines on either side
// of the block. A block with a malformed id or opening line is left as it
// is; an unclosed one ends the expansion there.
func ExpandPastedContent(text string) string {
	var out strings.Builder
	done, from, expanded := 0, 0, false
	for {
		open := strings.Index(text[from:], pastedOpen)
		if open < 0 {
			break
		}
		open += from
		idStart := open + len(pastedOpen)
		if idStart+4 > len(text) || !isPastedID(text[idStart:idStart+4]) || !strings.HasPrefix(text[idStart+4:], "\">\n") {
			from = idStart
			continue
		}
		id := text[idStart : idStart+4]
		bodyStart := idStart + 4 + 3
		closeTag := `</pasted_content id="` + id + `">`
		nl := strings.Index(text[bodyStart-1:], "\n"+closeTag)
		if nl < 0 {
			break
		}
		closeAt := bodyStart - 1 + nl + 1
		start := open
		for i := 0; i < 2 && start > done && text[start-1] == '\n'; i++ {
			start--
		}
		if start > done {
			out.WriteString(text[done:start])
		}
		done = closeAt + len(closeTag)
		for i := 0; i < 2 && done < len(text) && text[done] == '\n'; i++ {
			done++
		}
		if closeAt-1 > bodyStart {
			out.WriteString(text[bodyStart : closeAt-1])
		}
		expanded = true
		from = done
	}
	if !expanded {
		return text
	}
	if done < len(text) {
		out.WriteString(text[done:])
	}
	return out.String()
}
