package main

import (
	"testing"

	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/output"
)

// TestClientETALine checks the client's status line against lines fio
// 3.33's client printed from real servers' ETA replies.
func TestClientETALine(t *testing.T) {
	var c clientETA
	for _, tc := range []struct {
		e    netio.ETA
		want string
	}{
		{netio.ETA{Running: 1, FilesOpen: 1, ElapsedSec: 1, ETASec: netio.ETAUnknown, RunStr: "r(1)"}, "Jobs: 1 (f=1)\r"},
		{netio.ETA{Running: 1, FilesOpen: 1, ElapsedSec: 3, ETASec: 1, RateKiB: [3]uint64{11320000}, IOPS: [3]uint32{2831000}, RunStr: "r(1)"},
			"Jobs: 1 (f=1): [r(1)][75.0%][r=11.3G][r=2831k IOPS][eta 00m:01s]\r"},
		// Once a percentage was shown, an ETA of 0 shows 100%.
		{netio.ETA{Running: 1, FilesOpen: 1, ElapsedSec: 4, ETASec: 0, RateKiB: [3]uint64{8921000}, IOPS: [3]uint32{2230000}, RunStr: "r(1)"},
			"Jobs: 1 (f=1): [r(1)][100.0%][r=8921M][r=2230k IOPS][eta 00m:00s]\r"},
	} {
		if got := c.line(&tc.e); got != tc.want {
			t.Errorf("line(%+v)\n got %q\nwant %q", tc.e, got, tc.want)
		}
	}
	// Before any percentage was shown, an ETA of 0 shows "-.-%".
	var fresh clientETA
	e := netio.ETA{Running: 1, FilesOpen: 1, ElapsedSec: 2, RateKiB: [3]uint64{10400000}, IOPS: [3]uint32{2593000}, RunStr: "R(1)"}
	if got, want := fresh.line(&e), "Jobs: 1 (f=1): [R(1)][-.-%][r=10.4G][r=2593k IOPS][eta 00m:00s]\r"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestClientReports checks that a server's reports are told apart: a TS
// after the GS or DU of a report starts the next one.
func TestClientReports(t *testing.T) {
	srv := &remoteServer{}
	for _, op := range []bool{true, false, false, true, true, false} { // TS GS DU TS TS GS
		r := srv.report(op)
		if op {
			r.Jobs = append(r.Jobs, output.Job{})
		} else {
			r.Groups = append(r.Groups, output.Group{})
		}
	}
	if len(srv.reports) != 2 || len(srv.reports[0].Jobs) != 1 || len(srv.reports[1].Jobs) != 2 || len(srv.reports[1].Groups) != 1 {
		t.Errorf("reports: %d", len(srv.reports))
	}
}
