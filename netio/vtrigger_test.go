package netio

import (
	"encoding/hex"
	"testing"
)

// TestStateFile checks a state file against one fio 3.33 wrote (a job
// "tr" with 2787512 writes, by its client after a VTRIGGER): header,
// CRC and record.
func TestStateFile(t *testing.T) {
	got := hex.EncodeToString(StateFile(VerifyState{Name: "tr", NumberIO: 0x2a88b8}.Record()))
	want := "0300000000000000a800000000000000" + "79f3709700000000" +
		"00000000000000000100000001000000b8882a0000000000" + zeros(64) + "7472" + zeros(62+16)
	if got != want {
		t.Errorf("state file\n got %s\nwant %s", got, want)
	}
	recs, err := DecodeVTriggerReply(EncodeVTriggerReply([]VerifyState{{Name: "a", NumberIO: 1}, {Name: "b"}}))
	if err != nil || len(recs) != 2 || recs[0].Name != "a" || recs[1].Name != "b" || len(recs[1].Data) != verifyRecordSize {
		t.Errorf("reply round trip: %+v, %v", recs, err)
	}
	if cmd, err := DecodeVTrigger(EncodeVTrigger("true")); cmd != "true" || err != nil {
		t.Errorf("VTRIGGER round trip: %q, %v", cmd, err)
	}
	if _, err := DecodeVTrigger([]byte{5, 0, 't'}); err == nil {
		t.Error("a truncated VTRIGGER decoded")
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	return hex.EncodeToString(b)
}
