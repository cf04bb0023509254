package jobspec

import (
	"reflect"
	"testing"
)

func TestReplayOptionSetters(t *testing.T) {
	tests := []struct {
		set   func(*Job, string) error
		value string
		check func(*Job) any
		want  any
		err   string
	}{
		{setReadIolog, "a:b\\:c", func(j *Job) any { return j.ReadIolog }, []string{"a", "b:c"}, ""},
		{setReadIolog, "-", func(j *Job) any { return j.ReadIolog }, []string{"-"}, ""},
		{setReplaySkip, "read,sync", func(j *Job) any { return j.ReplaySkip }, SkipRead | SkipSync, ""},
		{setReplaySkip, "flush", nil, nil, "Unknown skip type: flush"},
		{setReplayUint("replay_scale", func(j *Job) *uint64 { return &j.ReplayScale }), "4k", func(j *Job) any { return j.ReplayScale }, uint64(4096), ""},
	}
	for _, tc := range tests {
		j := defaults()
		err := tc.set(j, tc.value)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.value, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.value, err)
		case !reflect.DeepEqual(tc.check(j), tc.want):
			t.Errorf("%q: got %v, want %v", tc.value, tc.check(j), tc.want)
		}
	}
}

func TestIologFor(t *testing.T) {
	r := ReplayOptions{ReadIolog: []string{"a", "b"}}
	for n, want := range []string{"a", "b", "a"} {
		if got := r.IologFor(n); got != want {
			t.Errorf("clone %d: %q, want %q", n, got, want)
		}
	}
	if got := (&ReplayOptions{}).IologFor(0); got != "" {
		t.Errorf("no read_iolog: %q", got)
	}
}
