package toolcall

// globReporter reports Glob: the file list is the result to show
// (contract: "Claude tools and ACP fields").
type globReporter struct{}

func (globReporter) ToolUse(in Input, _ UseContext) UseFacts {
	label := "Find"
	if in.truthy("path") {
		label += " `" + in.text("path") + "`"
	}
	if in.truthy("pattern") {
		label += " `" + in.text("pattern") + "`"
	}
	f := UseFacts{Title: label, Kind: "search", Locations: list[Location]()}
	if in.truthy("path") {
		f.Locations = list(Location{Path: in.text("path")})
	}
	return f
}

// grepReporter reports Grep: the title is the equivalent grep command line.
type grepReporter struct{}

func (grepReporter) ToolUse(in Input, _ UseContext) UseFacts {
	label := "grep"
	if in.truthy("-i") {
		label += " -i"
	}
	if in.truthy("-n") {
		label += " -n"
	}
	for _, flag := range []string{"-A", "-B", "-C"} {
		if _, ok := in[flag]; ok {
			label += " " + flag + " " + in.text(flag)
		}
	}
	switch grepOutputMode(in) {
	case "files_with_matches":
		label += " -l"
	case "count":
		label += " -c"
	}
	if _, ok := in["head_limit"]; ok {
		label += " | head -" + in.text("head_limit")
	}
	if in.truthy("glob") {
		label += ` --include="` + in.text("glob") + `"`
	}
	if in.truthy("type") {
		label += " --type=" + in.text("type")
	}
	if in.truthy("multiline") {
		label += " -P"
	}
	if in.truthy("pattern") {
		label += ` "` + in.text("pattern") + `"`
	}
	if p := grepPath(in); p != "" {
		label += " " + p
	}
	return UseFacts{Title: label, Kind: "search"}
}

// grepOutputMode reads the output mode as the CLI does: a `-l` or `-c`
// flag stands for it when `output_mode` is unset.
func grepOutputMode(in Input) string {
	if m, ok := in.strOK("output_mode"); ok {
		return m
	}
	flag := func(key string) bool {
		s, _ := in.strOK(key)
		return string(in[key]) == "true" || s == "true"
	}
	switch {
	case flag("-l"):
		return "files_with_matches"
	case flag("-c"):
		return "count"
	}
	return ""
}

// grepPath reads the path as the CLI does: `file_path` stands for `path`.
func grepPath(in Input) string {
	if p, ok := in.strOK("path"); ok {
		return p
	}
	return in.str("file_path")
}
