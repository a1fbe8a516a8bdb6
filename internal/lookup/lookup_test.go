package lookup

import "testing"

func TestSetHas(t *testing.T) {
	s := Set{"a", "b"}
	for k, want := range map[string]bool{"a": true, "b": true, "c": false, "": false} {
		if got := s.Has(k); got != want {
			t.Errorf("Has(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestMapGet(t *testing.T) {
	m := Map{{"a", "1"}, {"b", "2"}, {"a", "3"}}
	if v, ok := m.Get("a"); !ok || v != "1" {
		t.Errorf(`Get("a") = %q, %v; want "1", true (the first entry wins)`, v, ok)
	}
	if v, ok := m.Get("c"); ok || v != "" {
		t.Errorf(`Get("c") = %q, %v; want "", false`, v, ok)
	}
	if v := m.Value("b"); v != "2" {
		t.Errorf(`Value("b") = %q, want "2"`, v)
	}
}

func TestLazyBuildsOnce(t *testing.T) {
	builds := 0
	l := Lazy[map[string]int]{Build: func() map[string]int { builds++; return map[string]int{"a": 1} }}
	if builds != 0 {
		t.Fatal("built before the first Get")
	}
	for range 3 {
		if got := l.Get()["a"]; got != 1 {
			t.Errorf(`Get()["a"] = %d, want 1`, got)
		}
	}
	if builds != 1 {
		t.Errorf("Build ran %d times, want 1", builds)
	}
}
