package sessionindex

import (
	"reflect"
	"testing"
	"unsafe"
)

// Every string a row keeps is copied out of the reused windows
// (rowMeta.own): a field that is not would show another transcript's
// bytes once its window is read into again.
func TestRowMetaOwnCopiesEveryString(t *testing.T) {
	buf := []byte("shared window bytes")
	shared := unsafe.String(&buf[0], len(buf))
	var m rowMeta
	var fields []reflect.Value
	var collect func(v reflect.Value)
	collect = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.String:
				fields = append(fields, f)
			case reflect.Struct:
				collect(f)
			}
		}
	}
	collect(reflect.ValueOf(&m).Elem())
	if len(fields) < 9 {
		t.Fatalf("found %d string fields, want at least 9", len(fields))
	}
	for _, f := range fields {
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetString(shared)
	}
	m.own()
	for _, f := range fields {
		s := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().String()
		if s != shared {
			t.Fatalf("own changed a value to %q", s)
		}
		if unsafe.StringData(s) == unsafe.StringData(shared) {
			t.Errorf("a string field of rowMeta still shares the window after own()")
		}
	}
}
