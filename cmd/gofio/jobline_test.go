package main

import (
	"context"
	"strings"
	"testing"
)

// TestServerJobLineError checks a JOBLINE with an option getopt rejects,
// as fio 3.33's server reads it (observed): fio's line reaches the client
// once, glibc's the server's stderr; a bad last option is skipped, one
// with more arguments after it ends the session. An option whose value
// fio refuses is treated the same way.
func TestServerJobLineError(t *testing.T) {
	cases := []struct {
		argv      []string
		text, log string
		fails     bool
		args      []string
	}{
		{[]string{"fio", "--foo=bar"}, "fio: unrecognized option '--foo=bar'\n", "fio: unrecognized option '--foo=bar'\n", false, nil},
		{[]string{"fio", "--output-format=json", "--hipri"}, "fio: unrecognized option '--hipri'\nDid you mean prio?\n", "fio: unrecognized option '--hipri'\n", false, []string{"--output-format=json"}},
		{[]string{"fio", "--bs"}, "fio: unrecognized option '--bs'\nDid you mean bs?\n", "fio: option '--bs' requires an argument\n", false, nil},
		{[]string{"fio", "--foo=1", "--eta=never"}, "fio: unrecognized option '--foo=1'\nDid you mean loops?\n", "fio: unrecognized option '--foo=1'\n", true, nil},
		{[]string{"fio", "--eta=never"}, "", "", false, []string{"--eta=never"}},
		{[]string{"fio", "--eta=never", "--terse-version=9"}, "fio: bad terse version format\n", "", false, []string{"--eta=never"}},
		{[]string{"fio", "--eta=never", "--output-format", "bogus"}, "fio: invalid output format bogus\nfio: failed parsing output-format\n", "", false, []string{"--eta=never"}},
		{[]string{"fio", "--terse-version=9", "--eta=never"}, "fio: bad terse version format\n", "", true, nil},
		{[]string{"fio", "--terse-version=9", "--foo"}, "fio: bad terse version format\n", "", true, nil},
		{[]string{"fio", "--debug=io"}, "", "", false, []string{"--debug=io"}},
	}
	for _, c := range cases {
		var text, log strings.Builder
		b := &serverBackend{log: &log}
		err := b.JobLine(context.Background(), c.argv, &text)
		if text.String() != c.text || log.String() != c.log || (err != nil) != c.fails || strings.Join(b.args, " ") != strings.Join(c.args, " ") {
			t.Errorf("JobLine(%q): client %q, server stderr %q, error %v, args %q; want %q, %q, error %v, args %q",
				c.argv, text.String(), log.String(), err, b.args, c.text, c.log, c.fails, c.args)
		}
	}
}
