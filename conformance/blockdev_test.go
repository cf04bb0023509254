package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeviceEngineRefusals: the sg and io_uring_cmd engines on targets
// they refuse (there is no SCSI or NVMe device here). fio 3.33 refuses a
// regular or missing file for sg with "only works on block or character
// devices" (err=22), a device that does not answer READ CAPACITY (a
// loop device, /dev/null) with error 0; io_uring_cmd refuses all but
// character devices ("only works with nvme ns generic char devices") and
// a character device that is no NVMe namespace ("failed to fetch
// namespace-id"), with error 0. Compared: exit status, stderr, the
// normal report's lines, the JSON error, and that no file was created.
func TestDeviceEngineRefusals(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	targets := []struct {
		name  string
		file  string
		setup func(t *testing.T) string // returns the target's path
	}{
		{name: "regular file", setup: func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "reg")
			fillFile(t, p, 1<<20, 1)
			return p
		}},
		{name: "missing file", setup: func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing") }},
		{name: "dev null", setup: func(t *testing.T) string { return "/dev/null" }},
		{name: "loop device", setup: func(t *testing.T) string {
			back := filepath.Join(t.TempDir(), "back")
			fillFile(t, back, 1<<20, 2)
			return loopOver(t, back)
		}},
	}
	for _, eng := range []string{"sg", "io_uring_cmd"} {
		for _, tg := range targets {
			t.Run(eng+"/"+tg.name, func(t *testing.T) {
				path := tg.setup(t)
				for _, format := range []string{"normal", "json"} {
					a := args("--name=d --ioengine=" + eng + " --filename=" + path + " --size=64k --rw=write --output-format=" + format)
					fr, gr := runBoth(t, gofio, a)
					if fr.rc != 1 || gr.rc != 1 {
						t.Errorf("%s: exit status: fio %d, gofio %d; want 1", format, fr.rc, gr.rc)
					}
					if fr.stderr != gr.stderr {
						t.Errorf("%s: stderr: fio %q, gofio %q", format, fr.stderr, gr.stderr)
					}
					if format == "normal" {
						if diff := cmp.Diff(lines(fr.stdout), lines(gr.stdout)); diff != "" {
							t.Errorf("stdout (-fio +gofio):\n%s", diff)
						}
						continue
					}
					fe := jsonOf(t, "fio", fr).Get("jobs").Kids[0].Get("error").Text
					ge := jsonOf(t, "gofio", gr).Get("jobs").Kids[0].Get("error").Text
					if fe != ge {
						t.Errorf("JSON error: fio %s, gofio %s", fe, ge)
					}
				}
				if strings.HasSuffix(path, "missing") {
					if _, err := os.Stat(path); err == nil {
						t.Errorf("%s was created", path)
					}
				}
			})
		}
	}
}
