package validate

import (
	"encoding/json"
	"strconv"
)

// The agent's session/list pages across one listing: the pages that a
// request without a cursor starts and the requests that pass back each
// nextCursor continue ("Session index > List request" and "List
// response"; "Compatibility rule" for a client without sessionIndex).
//
// Rule ids:
//
//	session-list-page-size    more rows than the page may hold: the limit
//	                          (50 when omitted), clamped to 200, for a
//	                          sessionIndex client; 1000 for any other client
//	session-list-empty-page   a page with a nextCursor and no row
//	session-list-repeated-row a sessionId that a page of the same listing
//	                          (or the same page) already listed
const (
	RuleListPageSize    = "session-list-page-size"
	RuleListEmptyPage   = "session-list-empty-page"
	RuleListRepeatedRow = "session-list-repeated-row"
)

// Page bounds of "Session index > List request" and "Compatibility rule".
const (
	listDefaultLimit = 50
	listMaxLimit     = 200
	listPlainMax     = 1000
)

// listing is one chain of session/list pages.
type listing struct {
	rows map[string]bool // the sessionIds its pages listed
}

// listPage checks one session/list result of the agent against the pages
// of its listing before it.
func (c *checker) listPage(reqParams, result any) {
	if !c.fromAgent() || !c.v.st.initSeen {
		return
	}
	st := &c.v.st
	index := st.caps["sessionIndex"]
	rows, _ := field(result, "sessions").([]any)
	next, _ := field(result, "nextCursor").(string)
	if max, section := listPageMax(reqParams, index); max > 0 && len(rows) > max {
		c.add("/result/sessions", RuleListPageSize, section, SeverityError,
			"the page holds %d sessions; it holds at most %d (%s)", len(rows), max, listMaxText(index))
	}
	if !index {
		return // the paging rules of the session index apply only to a sessionIndex client
	}
	if next != "" && len(rows) == 0 {
		c.add("/result/nextCursor", RuleListEmptyPage, SectionSessionIndex, SeverityError,
			"a page with nextCursor is never empty (List response)")
	}
	l := st.lists[cursorOf(reqParams)]
	if l == nil {
		l = &listing{rows: map[string]bool{}}
	}
	for i, r := range rows {
		id, ok := field(r, "sessionId").(string)
		if !ok {
			continue
		}
		if l.rows[id] {
			c.add("/result/sessions/"+strconv.Itoa(i)+"/sessionId", RuleListRepeatedRow, SectionSessionIndex, SeverityError,
				"session %s is listed again; a page never repeats a row of the pages before it, and a session is listed once (List response)", id)
		}
		l.rows[id] = true
	}
	if next != "" {
		st.lists[next] = l
	}
}

// cursorOf is the cursor a session/list request passed ("" for the
// first page).
func cursorOf(reqParams any) string {
	cur, _ := field(reqParams, "cursor").(string)
	return cur
}

// listPageMax is the most rows a page may hold and the section that says
// so; 0 when the request's limit is invalid (the agent answers -32602).
func listPageMax(reqParams any, index bool) (int, string) {
	if !index {
		return listPlainMax, SectionCompatibility
	}
	limit := path(reqParams, "_meta", "jetbrains", "air", "list", "limit")
	if limit == nil {
		return listDefaultLimit, SectionSessionIndex
	}
	n, ok := limit.(json.Number)
	v, err := n.Int64()
	if !ok || err != nil || v < 1 {
		return 0, SectionSessionIndex
	}
	return int(min(v, listMaxLimit)), SectionSessionIndex
}

func listMaxText(index bool) string {
	if index {
		return "List request: the limit, 50 when omitted, clamped to 200"
	}
	return "Compatibility rule: every client gets pages of at most 1000 sessions"
}
