package toolcall

// notebookReporter reports NotebookEdit. A client that is not AIR gets the
// upstream generic rendering: `title: "NotebookEdit"`, `kind: other`, no
// content before the result (contract: "Claude tools and ACP fields").
type notebookReporter struct{}

func (notebookReporter) ToolUse(Input, UseContext) UseFacts {
	return UseFacts{Title: "NotebookEdit", Kind: "other"}
}
