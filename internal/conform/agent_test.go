package conform_test

import (
	"reflect"
	"testing"

	"github.com/airwire/airwire/internal/conform"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr bool
	}{
		{name: "words", in: "node  /x/index.js --flag", want: []string{"node", "/x/index.js", "--flag"}},
		{name: "double quotes", in: `node "/a b/index.js"`, want: []string{"node", "/a b/index.js"}},
		{name: "single quotes keep backslash", in: `a 'b\c'`, want: []string{"a", `b\c`}},
		{name: "escape", in: `a b\ c`, want: []string{"a", "b c"}},
		{name: "empty quoted arg", in: `a ""`, want: []string{"a", ""}},
		{name: "unterminated", in: `a "b`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := conform.SplitCommand(tt.in)
			if (err != nil) != tt.wantErr || (!tt.wantErr && !reflect.DeepEqual(got, tt.want)) {
				t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}
