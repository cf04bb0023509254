package netio

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/internal/crc16"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncodeGolden checks whole messages against bytes captured from
// real fio 3.33 sessions (netio/testdata).
func TestEncodeGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		msg  Msg
		wire string
	}{
		{"RUN", Msg{Op: OpRun}, "61 00 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 b0 bc 00 00"},
		{"SERVER_START", Msg{Op: OpServerStart}, "61 00 0e 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 d6 92 00 00"},
		{"SEND_ETA tagged", Msg{Op: OpSendETA, Tag: 0x563B280C3FE0}, "61 00 08 00 00 00 00 00 e0 3f 0c 28 3b 56 00 00 00 00 00 00 31 6d 00 00"},
		{"START 1,1", Msg{Op: OpStart, Payload: EncodePair(1, 1)}, "61 00 0b 00 00 00 00 00 00 00 00 00 00 00 00 00 08 00 00 00 c4 3f c0 30 01 00 00 00 01 00 00 00"},
		{"TEXT", Msg{Op: OpText, Payload: func() []byte {
			p := le(EncodeText(LevelInfo, "Starting 1 process\n", zeroTime))
			p.put64(8, 0x6B0C71AE)
			p.put64(16, 0x4AFB7)
			return p
		}()}, "61 00 05 00 00 00 00 00 00 00 00 00 00 00 00 00 2b 00 00 00 ad 50 fc a6 02 00 00 00 13 00 00 00" +
			"ae 71 0c 6b 00 00 00 00 b7 af 04 00 00 00 00 00 53 74 61 72 74 69 6e 67 20 31 20 70 72 6f 63 65 73 73 0a"},
		{"PROBE request", Msg{Op: OpProbe, Tag: 0x563B280C3A50, Payload: ProbeRequest{Zlib: true, Server: "127.0.0.1"}.Encode()},
			"61 00 0a 00 00 00 00 00 50 3a 0c 28 3b 56 00 00 88 00 00 00 e8 87 9a ec 01 00 00 00 00 00 00 00" +
				"31 32 37 2e 30 2e 30 2e 31" + strings.Repeat(" 00", 119)},
		{"PROBE reply", Msg{Op: OpProbe, Tag: 0x563B280C3A50, Payload: ProbeReply{Hostname: "vm", FioVersion: "fio-3.33", OS: 1, Arch: 1, BPP: 8, CPUs: 2, Flags: 1}.Encode()},
			"61 00 0a 00 00 00 00 00 50 3a 0c 28 3b 56 00 00 70 00 00 00 d9 e7 80 af 76 6d" + strings.Repeat(" 00", 63) +
				"66 69 6f 2d 33 2e 33 33" + strings.Repeat(" 00", 24) + "01 01 08 02 00 00 00 01 00 00 00 00 00 00 00"},
		{"LOAD_FILE payload", Msg{Op: OpLoadFile, Payload: EncodeLoadFile("remote.fio")}, ""},
	} {
		got := c.msg.Encode()
		if c.wire == "" {
			continue
		}
		if want := unhex(t, c.wire); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, got, want)
		}
	}
	if got, want := EncodeLoadFile("remote.fio"), unhex(t, "0a 00 01 00 72 65 6d 6f 74 65 2e 66 69 6f 00"); !bytes.Equal(got, want) {
		t.Errorf("LOAD_FILE payload % x, want % x", got, want)
	}
	if got, want := EncodeJobLine([]string{"fio", "--status-interval=1"}), append(unhex(t, "02 00 01 00 04 00 66 69 6f 00 14 00"), "--status-interval=1\x00"...); !bytes.Equal(got, want) {
		t.Errorf("JOBLINE payload % x, want % x", got, want)
	}
}

// TestRoundTrip sends messages of every size class through Encode and
// ReadMsg: no payload, one fragment, exactly 1024 bytes, several
// fragments.
func TestRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 1024, 1025, 8279, TSSize} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(i*7 + 3)
		}
		in := Msg{Op: OpTS, Tag: 42, Payload: p}
		wire := in.Encode()
		if frags := max(1, (n+MaxFragment-1)/MaxFragment); len(wire) != n+frags*HeaderSize {
			t.Errorf("%d bytes: %d on the wire, want %d fragments", n, len(wire), frags)
		}
		out, err := ReadMsg(bytes.NewReader(wire))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if out.Op != in.Op || out.Tag != in.Tag || !bytes.Equal(out.Payload, in.Payload) {
			t.Errorf("%d bytes: got op %v tag %d len %d", n, out.Op, out.Tag, len(out.Payload))
		}
	}
}

// TestReadMsgErrors checks that malformed input is refused with fio's
// messages.
func TestReadMsgErrors(t *testing.T) {
	good := Msg{Op: OpText, Payload: []byte("hello")}.Encode()
	corrupt := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	two := Msg{Op: OpJob, Payload: make([]byte, 1500)}.Encode()
	for _, c := range []struct {
		name string
		wire []byte
		want string
	}{
		{"header crc", corrupt(func(b []byte) []byte { b[20]++; return b }), "bad crc on command"},
		{"payload crc", corrupt(func(b []byte) []byte { b[24]++; return b }), "bad crc on payload"},
		{"version", func() []byte {
			b := corrupt(func(b []byte) []byte { b[0] = 96; return b })
			le(b).put16(20, crc16.ARC(b[:20]))
			return b
		}(), "version mismatch (96 != 97)"},
		{"too large", func() []byte {
			b := corrupt(func(b []byte) []byte { le(b).put32(16, 2000); return b })
			le(b).put16(20, crc16.ARC(b[:20]))
			return b
		}(), "payload too large: 2000"},
		{"fragment opcode", func() []byte {
			b := append([]byte(nil), two...)
			h := b[HeaderSize+MaxFragment:]
			le(h).put16(2, uint16(OpText))
			le(h).put16(20, crc16.ARC(h[:20]))
			return b
		}(), "fragment opcode mismatch"},
	} {
		_, err := ReadMsg(bytes.NewReader(c.wire))
		if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := ReadMsg(bytes.NewReader(good[:27])); err == nil {
		t.Error("truncated message: no error")
	}
}

var zeroTime = time.Unix(0, 0)
