package validate

import (
	"strings"
	"testing"
)

func TestGitPath(t *testing.T) {
	tests := map[string]struct{ path, want string }{
		"posix":       {"/workspace/src/App.ts", "a/workspace/src/App.ts"},
		"windows":     {`C:\work\App.ts`, "a/C:/work/App.ts"},
		"space":       {"/w/my file.ts", "a/w/my file.ts"},
		"non-ascii":   {"/w/é.ts", `"a/w/\303\251.ts"`},
		"quote":       {`/w/a"b.ts`, `"a/w/a\"b.ts"`},
		"tab":         {"/w/a\tb", `"a/w/a\tb"`},
		"backslash":   {`/w/a\b`, `"a/w/a\\b"`},
		"control DEL": {"/w/a\x7f", `"a/w/a\177"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := GitPath("a/", tt.path); got != tt.want {
				t.Errorf("GitPath = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCheckPatchText(t *testing.T) {
	const p = "/w/App.ts"
	good := "diff --git a/w/App.ts b/w/App.ts\n--- a/w/App.ts\n+++ b/w/App.ts\n@@ -1 +1 @@\n-old\n+new\n"
	added := "diff --git a/w/App.ts b/w/App.ts\nnew file mode 100644\n--- /dev/null\n+++ b/w/App.ts\n@@ -0,0 +1 @@\n+hi\n\\ No newline at end of file\n"
	spaced := "diff --git a/w/my file.ts b/w/my file.ts\n--- a/w/my file.ts\t\n+++ b/w/my file.ts\t\n@@ -1 +1 @@\n-a\n+b\n"
	tests := map[string]struct {
		text, path, want string // want: substring of a problem, "" = clean
	}{
		"good":                    {good, p, ""},
		"added file":              {added, p, ""},
		"space ends with a tab":   {spaced, "/w/my file.ts", ""},
		"space without the tab":   {strings.ReplaceAll(spaced, "\t", ""), "/w/my file.ts", `want "--- a/w/my file.ts\t"`},
		"CR":                      {strings.ReplaceAll(good, "\n", "\r\n"), p, "CR byte"},
		"no hunk":                 {"diff --git a/w/App.ts b/w/App.ts\n--- a/w/App.ts\n+++ b/w/App.ts\n", p, "no @@ hunk"},
		"no header":               {"--- a/w/App.ts\n+++ b/w/App.ts\n@@ -1 +1 @@\n", p, "diff --git"},
		"leading slash kept":      {strings.ReplaceAll(good, "a/w/", "a//w/"), p, "want"},
		"other file":              {good, "/w/Other.ts", "want"},
		"dev/null without mode":   {strings.Replace(added, "new file mode 100644\n", "", 1), p, "without new file mode"},
		"executable new file":     {strings.Replace(added, "100644", "100755", 1), p, "100644"},
		"two files":               {good + good, p, "2 files"},
		"deleted file":            {strings.Replace(good, "--- a/w/App.ts", "deleted file mode 100644\n--- a/w/App.ts", 1), p, "deleted"},
		"quoted path":             {"diff --git \"a/w/\\303\\251.ts\" \"b/w/\\303\\251.ts\"\n--- \"a/w/\\303\\251.ts\"\n+++ \"b/w/\\303\\251.ts\"\n@@ -1 +1 @@\n-a\n+b\n", "/w/é.ts", ""},
		"unquoted non-ASCII path": {"diff --git a/w/é.ts b/w/é.ts\n--- a/w/é.ts\n+++ b/w/é.ts\n@@ -1 +1 @@\n-a\n+b\n", "/w/é.ts", "want"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := CheckPatchText(tt.text, tt.path)
			if tt.want == "" {
				if len(got) > 0 {
					t.Fatalf("want clean, got %q", got)
				}
				return
			}
			for _, g := range got {
				if strings.Contains(g, tt.want) {
					return
				}
			}
			t.Fatalf("want a problem containing %q, got %q", tt.want, got)
		})
	}
}
