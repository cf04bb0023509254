package main

import (
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// TestSplitClients checks how a client command line is split among the
// servers (client/server reference §2.3).
func TestSplitClients(t *testing.T) {
	type want struct {
		spec        string
		files, args []string
		configs     []string
	}
	for _, c := range []struct {
		name   string
		argv   []string
		want   []want
		global []string
	}{
		{"one server, job file after it", []string{"--client=h", "a.fio"},
			[]want{{spec: "h", files: []string{"a.fio"}}}, nil},
		{"global job file before", []string{"a.fio", "--client=h"},
			[]want{{spec: "h"}}, []string{"a.fio"}},
		{"per-client files", []string{"--client=h1", "a.fio", "--client", "h2,99", "b.fio", "c.fio"},
			[]want{{spec: "h1", files: []string{"a.fio"}}, {spec: "h2,99", files: []string{"b.fio", "c.fio"}}}, nil},
		// The file goes to the last client only, as in fio.
		{"consecutive clients", []string{"--client=A", "--client=B", "j.fio"},
			[]want{{spec: "A"}, {spec: "B", files: []string{"j.fio"}}}, nil},
		// Forwarded options after consecutive clients go to each; job
		// options are not forwarded; a file after an option is global.
		{"remote args", []string{"--output-format=json", "--client=A", "--client=B", "--status-interval=1", "--bs=4k", "j.fio"},
			[]want{{spec: "A", args: []string{"--status-interval=1"}}, {spec: "B", args: []string{"--status-interval=1"}}}, []string{"j.fio"}},
		{"remote config", []string{"--client=A", "--remote-config=r.fio"},
			[]want{{spec: "A", configs: []string{"r.fio"}}}, nil},
	} {
		targets, global, err := splitClients(c.argv)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []want
		for _, tg := range targets {
			got = append(got, want{tg.spec, tg.files, tg.args, tg.configs})
		}
		if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(global, c.global) {
			t.Errorf("%s: splitClients(%q) = %+v, global %q; want %+v, %q", c.name, c.argv, got, global, c.want, c.global)
		}
	}
	if _, _, err := splitClients([]string{"--client=h,0"}); err == nil {
		t.Error("bad port: no error")
	}
}

// TestClientErrors checks fio's messages for a client that cannot start.
func TestClientErrors(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	job := filepath.Join(t.TempDir(), "j.fio")
	os.WriteFile(job, []byte("[j]\nioengine=null\nsize=1m\n"), 0o644)
	for _, c := range []struct {
		args []string
		errs string
	}{
		{[]string{"--client=127.0.0.1," + strconv.Itoa(port), job},
			"fio: connect: Connection refused\nfio: failed to connect to 127.0.0.1:" + strconv.Itoa(port) + "\n"},
		{[]string{"--client=h,0", job}, "fio: bad server port 0\n"},
		{[]string{"--remote-config=x"}, "gofio: --remote-config needs a --client before it\n"},
		{[]string{"--server=h,99999"}, "fio: bad server port 99999\n"},
	} {
		status, _, errs := gofio(t, c.args...)
		if status != 1 || errs != c.errs {
			t.Errorf("gofio %q = %d, %q; want 1, %q", c.args, status, errs, c.errs)
		}
	}
}
