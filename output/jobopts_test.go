package output

import (
	"bytes"
	"strings"
	"testing"
)

// TestJSONJobOptions prints "job options" only for a job that set some:
// fio 3.33 leaves the key out for a job section with no options of its
// own ("[global]\nioengine=null\nsize=1m\n[a]\n"), in client mode too.
func TestJSONJobOptions(t *testing.T) {
	for _, tt := range []struct {
		opts []Option
		want bool
	}{
		{nil, false},
		{[]Option{}, false},
		{[]Option{{Name: "rw", Value: "write"}}, true},
	} {
		r := synthetic()
		r.Jobs[0].Options = tt.opts
		var b bytes.Buffer
		JSON(&b, r, false)
		if got := strings.Contains(b.String(), `"job options"`); got != tt.want {
			t.Errorf("options %v: \"job options\" printed %v; want %v", tt.opts, got, tt.want)
		}
	}
}
