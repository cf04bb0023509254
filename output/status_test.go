package output

import "testing"

func TestETAString(t *testing.T) {
	tests := []struct {
		secs uint64
		want string
	}{
		{0, "00m:00s"},                         // nothing left
		{65, "01m:05s"},                        // minutes and seconds
		{7207, "02h:00m:07s"},                  // hours appear once non-zero
		{86401, "01d:00h:00m:01s"},             // days bring the hours along
		{ETAUnknown * 2, "49710d:06h:28m:14s"}, // fio's doubled unknown, verified
	}
	for _, tt := range tests {
		if got := etaString(tt.secs); got != tt.want {
			t.Errorf("etaString(%d) = %q; want %q", tt.secs, got, tt.want)
		}
	}
}

func TestCondenseStates(t *testing.T) {
	tests := []struct{ in, want string }{
		{"r", "r(1)"},               // one job
		{"rrr_", "r(3),_(1)"},       // a run, then a finished job
		{"RwP", "R(1),w(1),P(1)"},   // three states
		{"__m", "_(2),m(1)"},        // finished jobs first
		{"PPwPP", "P(2),w(1),P(2)"}, // equal characters apart are separate runs
		{"", ""},                    // no job
	}
	for _, tt := range tests {
		if got := CondenseStates([]byte(tt.in)); got != tt.want {
			t.Errorf("CondenseStates(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestStatusLine renders snapshots into fio 3.33's status lines. Rates
// are in KiB/s whatever kb_base is: without Pow2 fio puts decimal
// prefixes on the KiB values (2056 KiB/s shows as 2056kB/s).
func TestStatusLine(t *testing.T) {
	tests := []struct {
		name string
		snap StatusSnapshot
		want string
	}{
		{
			name: "ETA unknown: no bracket part",
			snap: StatusSnapshot{Running: 1, Files: 1, States: []byte("r"), ETA: ETAUnknown, KiBps: [3]uint64{1024}},
			want: "Jobs: 1 (f=1)",
		},
		{
			name: "nothing running: no bracket part",
			snap: StatusSnapshot{States: []byte("P"), ETA: 5},
			want: "Jobs: 0 (f=0)",
		},
		{
			name: "idle directions: no rates",
			snap: StatusSnapshot{Running: 2, Files: 2, States: []byte("RR"), Percent: 75, ETA: 1, Pow2: true},
			want: "Jobs: 2 (f=2): [R(2)][75.0%][eta 00m:01s]",
		},
		{
			name: "percent unknown while ramping",
			snap: StatusSnapshot{Running: 1, States: []byte("/"), PercentUnknown: true, Percent: 12, ETA: 5},
			want: "Jobs: 1 (f=0): [/(1)][-.-%][eta 00m:05s]",
		},
		{
			name: "read rates, powers of 2",
			snap: StatusSnapshot{Running: 1, Files: 1, States: []byte("r"), Percent: 75, ETA: 1,
				KiBps: [3]uint64{409600}, IOPS: [3]uint64{102400}, Pow2: true},
			want: "Jobs: 1 (f=1): [r(1)][75.0%][r=400MiB/s][r=102k IOPS][eta 00m:01s]",
		},
		{
			name: "read and write, states condensed",
			snap: StatusSnapshot{Running: 2, Files: 3, States: []byte("rWP"), Percent: 25, ETA: 9,
				KiBps: [3]uint64{1027, 2054}, IOPS: [3]uint64{256, 513}, Pow2: true},
			want: "Jobs: 2 (f=3): [r(1),W(1),P(1)][25.0%][r=1027KiB/s,w=2054KiB/s][r=256,w=513 IOPS][eta 00m:09s]",
		},
		{
			name: "trim only, decimal units",
			snap: StatusSnapshot{Running: 1, Files: 1, States: []byte("d"), Percent: 33.333, ETA: 3725,
				KiBps: [3]uint64{0, 0, 2056}, IOPS: [3]uint64{0, 0, 514}},
			want: "Jobs: 1 (f=1): [d(1)][33.3%][t=2056kB/s][t=514 IOPS][eta 01h:02m:05s]",
		},
		{
			name: "bits per second",
			snap: StatusSnapshot{Running: 1, Files: 1, States: []byte("m_"), Percent: 30, ETA: 7,
				KiBps: [3]uint64{2055}, IOPS: [3]uint64{3}, Bits: true},
			want: "Jobs: 1 (f=1): [m(1),_(1)][30.0%][r=16.4Mbit/s][r=3 IOPS][eta 00m:07s]",
		},
		{
			name: "decimal prefixes on KiB",
			snap: StatusSnapshot{Running: 1, Files: 1, States: []byte("mX"), Percent: 30, ETA: 7,
				KiBps: [3]uint64{2105193}, IOPS: [3]uint64{3}},
			want: "Jobs: 1 (f=1): [m(1),X(1)][30.0%][r=2105MB/s][r=3 IOPS][eta 00m:07s]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StatusLine(&tt.snap); got != tt.want {
				t.Errorf("StatusLine() =\n%q, want\n%q", got, tt.want)
			}
		})
	}
}
