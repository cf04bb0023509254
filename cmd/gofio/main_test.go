package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gofio runs the command in-process and returns its exit status and
// output.
func gofio(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(args, strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	status, out, errs := gofio(t, "--version")
	if status != 0 || out != "fio-3.33\n" || errs != "" {
		t.Errorf("gofio --version = %d, %q, %q; want 0, \"fio-3.33\\n\", \"\"", status, out, errs)
	}
	// The first option that asks to exit wins; later bad ones are not seen.
	if status, out, _ := gofio(t, "--version", "--no-such-option"); status != 0 || out != "fio-3.33\n" {
		t.Errorf("gofio --version --no-such-option = %d, %q; want 0 and the version", status, out)
	}
}

func TestHelp(t *testing.T) {
	status, out, _ := gofio(t, "--help")
	if status != 0 || !strings.HasPrefix(out, "fio-3.33\n") || !strings.Contains(out, "--output-format=type\tOutput format (terse,json,json+,normal)") {
		t.Errorf("gofio --help = %d, %q...; want 0 and fio's usage", status, out[:min(len(out), 80)])
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		args       []string
		wantStatus int
		wantErr    string // a line of stderr
	}{
		// An unknown format is refused with fio's two lines.
		{[]string{"--output-format=xml", "--name=a", "--size=1m", "--ioengine=null"}, 1, "fio: invalid output format xml\nfio: failed parsing output-format"},
		// A terse version outside 2..5.
		{[]string{"--terse-version=7", "--name=a"}, 1, "fio: bad terse version format"},
		// A job file that does not exist.
		{[]string{"nosuchfile.fio"}, 1, "fio: unable to open 'nosuchfile.fio' job file"},
		// An invalid value.
		{[]string{"--name=a", "--direct=2", "--size=1m"}, 1, "fio: failed parsing direct=2"},
		// No job at all: fio's message, then its usage on stdout.
		{[]string{"--size=1m"}, 1, "No job(s) defined"},
		// An option fio knows that gofio does not honour yet is never ignored.
		// Engines that need C libraries or hardware: the engine and why.
		{[]string{"--name=a", "--size=1m", "--ioengine=rbd"}, 1, "gofio: ioengine rbd is not supported: it needs librbd, a C library (Ceph), and gofio builds without cgo (job a)"},
		{[]string{"--name=a", "--size=1m", "--ioengine=dev-dax"}, 1, "gofio: ioengine dev-dax is not supported: it needs libpmem, a C library, and a device-DAX device (persistent memory) (job a)"},
	}
	for _, tt := range tests {
		status, _, errs := gofio(t, tt.args...)
		if status != tt.wantStatus || !strings.Contains(errs, tt.wantErr) {
			t.Errorf("gofio %q = %d, stderr %q; want %d and %q", tt.args, status, errs, tt.wantStatus, tt.wantErr)
		}
	}
}

func TestEnDashHint(t *testing.T) {
	status, _, errs := gofio(t, "--name=a", "--size=1m", "–group_reporting")
	if status != 1 || !strings.Contains(errs, "fio: unable to open '–group_reporting' job file") || !strings.Contains(errs, "did you mean --group_reporting?") {
		t.Errorf("en dash: status %d, stderr %q; want 1, fio's error and a hint", status, errs)
	}
}

func TestNullJobJSON(t *testing.T) {
	status, out, errs := gofio(t, "--output-format=json", "--name=n", "--ioengine=null", "--size=4m", "--bs=4k")
	if status != 0 || errs != "" {
		t.Fatalf("null job: status %d, stderr %q", status, errs)
	}
	if !strings.HasPrefix(out, "{\n") || !strings.HasSuffix(out, "}\n") || !strings.Contains(out, `"total_ios" : 1024,`) {
		t.Errorf("null job JSON does not look like fio's:\n%s", out)
	}
}

// TestStaticBinary checks that gofio builds with cgo off into a binary
// that needs no dynamic loader and no shared library.
func TestStaticBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "gofio")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("binary has a PT_INTERP segment: it is dynamically linked")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("binary needs shared libraries %v", libs)
	}
}
