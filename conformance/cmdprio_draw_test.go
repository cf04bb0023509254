package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCmdPrioDraws compares which I/Os cmdprio_percentage and
// cmdprio_bssplit prioritise: fio 3.33 draws them from the job's seeded
// prio stream, so each priority's I/O count per direction is fio's.
func TestCmdPrioDraws(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	t.Parallel()
	for _, extra := range []string{
		"--cmdprio_percentage=30",
		"--cmdprio_percentage=30,70",
		"--cmdprio_percentage=50 --randseed=9",
		"--cmdprio_percentage=100,40",
		"--cmdprio_bssplit=4k/20:8k/50 --bsrange=4k-8k",
		"--ioengine=io_uring --cmdprio_percentage=25 --iodepth=8",
	} {
		t.Run(extra, func(t *testing.T) {
			a := args("--name=j --ioengine=libaio --filename=F --size=1m --bs=4k --rw=randrw --output-format=json " + extra)
			var got [2]string
			for i, bin := range []string{fioPath, gofio} {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "F"), make([]byte, 1<<20), 0o644); err != nil {
					t.Fatal(err)
				}
				r := runIn(bin, dir, a)
				if r.rc != 0 {
					t.Fatalf("%s: exit %d: %s", bin, r.rc, head(r.stderr))
				}
				var out struct {
					Jobs []map[string]json.RawMessage `json:"jobs"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Jobs) != 1 {
					t.Fatalf("%s: JSON: %v", bin, err)
				}
				for _, d := range []string{"read", "write"} {
					var dir struct {
						TotalIOs uint64 `json:"total_ios"`
						Prios    []struct {
							Class int `json:"prioclass"`
							Prio  int `json:"prio"`
							Clat  struct {
								N uint64 `json:"N"`
							} `json:"clat_ns"`
						} `json:"prios"`
					}
					if err := json.Unmarshal(out.Jobs[0][d], &dir); err != nil {
						t.Fatalf("%s: JSON %s: %v", bin, d, err)
					}
					got[i] += fmt.Sprintf("%s %d:", d, dir.TotalIOs)
					for _, p := range dir.Prios {
						got[i] += fmt.Sprintf(" %d/%d=%d", p.Class, p.Prio, p.Clat.N)
					}
					got[i] += "; "
				}
			}
			if got[0] != got[1] {
				t.Errorf("I/Os per priority:\n fio:   %s\n gofio: %s", got[0], got[1])
			}
		})
	}
}
