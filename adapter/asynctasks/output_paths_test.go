package asynctasks

import (
	"reflect"
	"testing"
)

func TestTaskOutputPaths(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"posix sentence", "Output is being written to: /tmp/x/tasks/b1.output. You will be notified.", []string{"/tmp/x/tasks/b1.output"}},
		{"spaces in path", "written to: /home/a b/tasks/b2.output", []string{"/home/a b/tasks/b2.output"}},
		{"windows drive", `written to: C:\Users\a\tasks\b3.output` + "\n", []string{`C:\Users\a\tasks\b3.output`}},
		{"unc", `written to: \\srv\share\tasks\b4.output end`, []string{`\\srv\share\tasks\b4.output`}},
		{"relative", "written to: tasks/b5.output", nil},
		{"across a line", "written to: /tmp\n/tasks/b6.output", nil},
		{"no colon", "see /tmp/tasks/b7.output", nil},
		{"word after the period", "written to: /tmp/tasks/b8.outputs", nil},
		{"period then word", "written to: /tmp/tasks/b9.output.x", nil},
		{"two paths", "a: /t/tasks/c1.output and b: /u/tasks/c2.output", []string{"/t/tasks/c1.output", "/u/tasks/c2.output"}},
		{"second path needs its own colon", "a: /t/tasks/c1.output /u/tasks/c2.output", []string{"/t/tasks/c1.output"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := taskOutputPaths(tc.text); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("taskOutputPaths(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
