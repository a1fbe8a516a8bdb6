package cassette

import "testing"

func TestArgvDiff(t *testing.T) {
	rec := []string{"--output-format", "stream-json", "--permission-mode", "auto", "--session-id={{session_id_1}}"}
	for _, tc := range []struct {
		got  []string
		want string
	}{
		{rec, ""},
		{[]string{"--output-format=stream-json", "--permission-mode", "auto", "--session-id", "{{session_id_1}}"}, ""},
		{[]string{"--session-id={{session_id_1}}", "--permission-mode", "auto", "--output-format", "stream-json"}, ""},
		{[]string{"--output-format", "stream-json", "--permission-mode", "default", "--session-id={{session_id_1}}"},
			"the CLI was started with `--permission-mode=default` where the recording has `--permission-mode=auto`"},
		{append(append([]string(nil), rec...), "--verbose"), "the CLI was started with `--verbose`, which the recording does not have"},
		{rec[:4], "the CLI was started without `--session-id={{session_id_1}}`, which the recording has"},
	} {
		if got := argvDiff(tc.got, rec); got != tc.want {
			t.Errorf("argvDiff(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}
