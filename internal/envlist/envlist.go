// Package envlist reads environment lists: KEY=VALUE entries as
// os.Environ and exec.Cmd.Env hold them.
package envlist

import "strings"

// Lookup is os.LookupEnv over env: the value of key's last entry (a later
// entry overrides an earlier one, as exec.Cmd does), and whether any entry
// names key. Keys compare exactly, on every platform.
func Lookup(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key); ok && strings.HasPrefix(v, "=") {
			return v[1:], true
		}
	}
	return "", false
}

// Getenv is os.Getenv over env: Lookup's value, or "" when no entry names
// key.
func Getenv(env []string, key string) string {
	v, _ := Lookup(env, key)
	return v
}
