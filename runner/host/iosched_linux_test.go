package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// fakeSchedSys builds a sysfs tree in which the disk "fake" holds dir, with a
// queue/scheduler file holding sched (or a directory, when sched is "").
func fakeSchedSys(t *testing.T, dir, sched string) (root, file string) {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	disk := filepath.Join(root, "block", "fake")
	if err := os.MkdirAll(filepath.Join(disk, "queue"), 0o755); err != nil {
		t.Fatal(err)
	}
	dev := fmt.Sprintf("%d:%d\n", unix.Major(st.Dev), unix.Minor(st.Dev))
	if err := os.WriteFile(filepath.Join(disk, "dev"), []byte(dev), 0o644); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(disk, "queue", "scheduler")
	if sched == "" {
		err := os.Mkdir(file, 0o755)
		if err != nil {
			t.Fatal(err)
		}
	} else if err := os.WriteFile(file, []byte(sched), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, file
}

func TestSwitchIOScheduler(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	tests := []struct {
		sched, name string
		err         unix.Errno
		fn, errs    string
		after       string
	}{
		// A sysfs scheduler file selects the name written; a regular
		// file holding "none [none]" reads back "[none]" after "none"
		// overwrites its start.
		{"none [none] kyber\n", "none", 0, "", "", "none [none] kyber\n"},
		{"[mq-deadline] none\n", "kyber", unix.EINVAL, "iosched_switch", "does not select kyber", "kybereadline] none\n"},
		{"", "none", unix.EISDIR, "fopen iosched", "", ""},
	}
	for _, tt := range tests {
		root, file := fakeSchedSys(t, dir, tt.sched)
		var errs strings.Builder
		e, fn := SwitchIOScheduler(root, tt.name, []string{path, path}, &errs)
		if e != tt.err || fn != tt.fn || !strings.Contains(errs.String(), tt.errs) {
			t.Errorf("%q, %s: %v (%s) %q; want %v (%s) %q", tt.sched, tt.name, e, fn, errs.String(), tt.err, tt.fn, tt.errs)
		}
		if tt.after != "" {
			if b, _ := os.ReadFile(file); string(b) != tt.after {
				t.Errorf("%q, %s: the file holds %q; want %q", tt.sched, tt.name, b, tt.after)
			}
		}
	}
	// No block device (an empty sysfs): nothing to switch.
	if e, fn := SwitchIOScheduler(t.TempDir(), "none", []string{path}, nil); e != 0 {
		t.Errorf("without a disk: %v (%s); want no error", e, fn)
	}
}
