package providers

import (
	"math"
	"testing"
)

// The expectations are what Node prints.
func TestJSNumber(t *testing.T) {
	cases := map[float64]string{
		1: "1", 1.5: "1.5", 100: "100", 1e21: "1e+21", 1e20: "100000000000000000000",
		1.25e-7: "1.25e-7", 0.000001: "0.000001", 123456789012345680000: "123456789012345680000",
		-0.5: "-0.5", 5e-324: "5e-324", math.Copysign(0, -1): "0", 2.5e-10: "2.5e-10", 1e-7: "1e-7",
		math.Inf(1): "Infinity",
	}
	for f, want := range cases {
		if got := jsNumber(f); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestJSString(t *testing.T) {
	v, err := parseJS([]byte(`[[1,null,[2,3],"x"], {}, null, true, 1e3]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1,,2,3,x", "[object Object]", "null", "true", "1000"}
	for i, e := range v.([]any) {
		if got := jsString(e); got != want[i] {
			t.Errorf("jsString(%v) = %q, want %q", e, got, want[i])
		}
	}
	if got := interpolate(nil, false); got != "undefined" {
		t.Errorf("undefined prints %q", got)
	}
}

// Objects keep JavaScript's key order: array indexes first, then the
// others as added, a repeated key in its first place with its last value.
func TestStringifyKeepsJavaScriptOrder(t *testing.T) {
	v, err := parseJS([]byte(` {"b":1,"2":2,"a":3,"1":4,"b":5,"01":6,"4294967295":7,"4294967294":8,"s":"a\u2028<&>\u0001\u007f\"\\\/"} `))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"1":4,"2":2,"4294967294":8,"b":5,"a":3,"01":6,"4294967295":7,"s":"a` + "\u2028" + `<&>\u0001` + "\u007f" + `\"\\/"}`
	if got := stringify(v); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestSpread(t *testing.T) {
	o := &jsObject{}
	spread(o, "ab")
	spread(o, []any{"x"})
	spread(o, 5.0)
	spread(o, nil)
	if got := stringify(o); got != `{"0":"x","1":"b"}` {
		t.Errorf("got %s", got)
	}
}
