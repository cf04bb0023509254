package netio

import (
	"bytes"
	"testing"
)

// FuzzReadMsg feeds arbitrary bytes to the reader: it must return a
// message or an error, never panic, and a message it returns must
// survive Encode and ReadMsg unchanged.
func FuzzReadMsg(f *testing.F) {
	f.Add(Msg{Op: OpRun}.Encode())
	f.Add(Msg{Op: OpJob, Payload: make([]byte, 1500)}.Encode())
	f.Add(Msg{Op: OpText, Payload: EncodeText(LevelInfo, "x\n", zeroTime)}.Encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMsg(bytes.NewReader(data))
		if err != nil {
			return
		}
		back, err := ReadMsg(bytes.NewReader(m.Encode()))
		if err != nil || back.Op != m.Op || back.Tag != m.Tag || !bytes.Equal(back.Payload, m.Payload) {
			t.Fatalf("round trip of %v: %v", m.Op, err)
		}
	})
}

// FuzzDecode feeds arbitrary payloads to every payload decoder: none
// may panic.
func FuzzDecode(f *testing.F) {
	f.Add(EncodeJobLine([]string{"fio", "--eta=never"}))
	f.Add(EncodeText(LevelInfo, "x", zeroTime))
	f.Add(EncodeLoadFile("a.fio"))
	f.Add(EncodeJob("[j]\n"))
	f.Fuzz(func(t *testing.T, p []byte) {
		DecodeProbeRequest(p)
		DecodeProbeReply(p)
		DecodeJob(p)
		DecodeJobLine(p)
		DecodeLoadFile(p)
		DecodeText(p)
		DecodePair(p)
		DecodeJobOpt(p)
		DecodeETA(p)
		DecodeGS(p)
		DecodeDU(p)
		DecodeTS(p)
	})
}
