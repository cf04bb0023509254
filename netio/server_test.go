package netio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/gofio/gofio/output"
)

// fakeBackend parses nothing and runs nothing: it announces one job and
// reports one fixed result.
type fakeBackend struct{}

func (fakeBackend) JobLine(ctx context.Context, argv []string, errs io.Writer) error {
	if len(argv) > 1 && argv[1] == "--bad" {
		fmt.Fprintln(errs, "bad option")
		return errors.New("bad")
	}
	return nil
}

func (fakeBackend) AddJob(ctx context.Context, text string, file bool, info, errs io.Writer) (int, int, error) {
	io.WriteString(info, "j: (g=0): rw=read\n")
	return 1, 1, nil
}

func (fakeBackend) Run(stop <-chan struct{}, h RunHooks, info, errs io.Writer) (*Report, int) {
	h.Started()
	r := &output.Result{
		GlobalOptions: []output.Option{{Name: "ioengine", Value: "null"}},
		Jobs:          []output.Job{{Name: "j", Options: []output.Option{{Name: "rw", Value: "read"}}}},
		Groups:        []output.Group{{ID: 0}},
		Disks:         []output.Disk{{Name: "vda"}},
	}
	return &Report{Result: r, Threads: []int{1}, Normal: true}, 0
}

func (fakeBackend) ETA() ETA { return ETA{Running: 1, RunStr: "R(1)"} }

// startFake serves fakeBackends on a free localhost port.
func startFake(t *testing.T) net.Conn {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{NewBackend: func() Backend { return fakeBackend{} }, Hostname: "h"}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		l.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return after its listener closed")
		}
	})
	c, err := net.Dial("tcp4", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	return c
}

// TestServerSession checks the order of what a server sends in a whole
// session, as the real fio server does (reference §7.1).
func TestServerSession(t *testing.T) {
	c := startFake(t)
	for _, m := range []Msg{
		{Op: OpProbe, Tag: 7, Payload: ProbeRequest{Zlib: true, Server: "127.0.0.1"}.Encode()},
		{Op: OpJob, Payload: EncodeJob("[j]\n")},
		{Op: OpSendETA, Tag: 9},
		{Op: OpRun},
	} {
		if err := WriteMsg(c, m); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for {
		m, err := ReadMsg(c)
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		s := m.Op.String()
		switch m.Op {
		case OpProbe, OpETA:
			s += fmt.Sprintf("/tag=%d", m.Tag)
		case OpText:
			_, text, _ := DecodeText(m.Payload)
			s += fmt.Sprintf("/%q", text)
		case OpJobOpt:
			o, _ := DecodeJobOpt(m.Payload)
			s += fmt.Sprintf("/%v/%s=%s", o.Global, o.Name, o.Value)
		case OpTS:
			ts, err := DecodeTS(m.Payload)
			if err != nil {
				t.Fatal(err)
			}
			s += "/" + ts.Job.Name
		}
		got = append(got, s)
		if m.Op == OpQuit {
			break
		}
	}
	want := []string{
		"PROBE/tag=7", `TEXT/"j: (g=0): rw=read\n"`, "START", "ETA/tag=9", "SERVER_START",
		"JOB_OPT/true/ioengine=null", "JOB_OPT/false/rw=read", "TS/j", "GS", "DISK_UTIL", `TEXT/"\n"`, "STOP", "QUIT",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("session:\n got %q\nwant %q", got, want)
	}
}

// TestServerRefuses checks the answers to bad input: QUIT for a failed
// JOBLINE, an error TEXT and a closed connection for an unknown opcode.
func TestServerRefuses(t *testing.T) {
	c := startFake(t)
	WriteMsg(c, Msg{Op: OpJobLine, Payload: EncodeJobLine([]string{"fio", "--bad"})})
	WriteMsg(c, Msg{Op: 99})
	var got []string
	for {
		m, err := ReadMsg(c)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s := m.Op.String()
		if m.Op == OpText {
			lvl, text, _ := DecodeText(m.Payload)
			s += fmt.Sprintf("/%d/%q", lvl, text)
		}
		got = append(got, s)
	}
	want := []string{`TEXT/3/"bad option\n"`, "QUIT", `TEXT/3/"fio: unknown opcode: UNKNOWN/99\n"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
