// Package verdict turns gojsonschema results into Violations: the JSON pointer
// of the failing value, the gojsonschema error type as the keyword, and a
// sentence a person understands. It owns no schema and never loads files; the
// schemas/acp and schemas/air loaders use it so both report failures the same
// way.
package verdict
