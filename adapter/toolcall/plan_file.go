package toolcall

import (
	"encoding/json"
	"path/filepath"

	"github.com/airwire/airwire/adapter/caps"
)

// The plan file of ExitPlanMode (contract: "Plan file"): for a client
// that declared planFile, each ExitPlanMode report that carries rawInput
// has `planFilePath` and no plan text. The CLI adds `plan` and
// `planFilePath` to the complete input only when the plan file exists;
// the structured result names it as `filePath`.

// planFile reports whether the client reads the plan from its file.
func planFile(c caps.Client) bool { return c.AIR.Client && c.AIR.Has(caps.PlanFile) }

// existingPlanFile is path when it is absolute and names a regular file
// ("The path is absolute, and it names a regular file"), else "".
func (d *Disk) existingPlanFile(path string) string {
	if path == "" || !filepath.IsAbs(path) || !d.isFile(path) {
		return ""
	}
	return path
}

// usePlanFile is the plan file of an ExitPlanMode input for a planFile
// client ("" falls back to the inline plan, "Fallback").
func usePlanFile(in Input, ctx UseContext) string {
	if !planFile(ctx.Caps) {
		return ""
	}
	p, _ := in.strOK("planFilePath")
	return ctx.Disk.existingPlanFile(p)
}

// resultPlanFile is the plan file of an ExitPlanMode result: the path of
// the input, else the `filePath` of the structured result.
func resultPlanFile(ctx ResultContext) string {
	if !planFile(ctx.Caps) {
		return ""
	}
	in := parseInput(ctx.Use.Input)
	if p, _ := in.strOK("planFilePath"); ctx.Disk.existingPlanFile(p) != "" {
		return p
	}
	var s struct {
		FilePath string `json:"filePath"`
	}
	_ = json.Unmarshal(ctx.Structured, &s)
	return ctx.Disk.existingPlanFile(s.FilePath)
}

// planFileInput is the input with the plan file path in place of the
// plan text.
func planFileInput(input json.RawMessage, path string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(input, &obj) != nil || obj == nil {
		obj = map[string]json.RawMessage{}
	}
	delete(obj, "plan")
	obj["planFilePath"] = encode(path)
	return encode(obj)
}
