package parser

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstFio writes random job files and compares what fio --showcmd
// prints with the same rendering of the parsed sections. It needs fio 3.33
// and runs only when PARSER_FIO_DIFF is set to the number of files to try
// (and PARSER_FIO_SEED, optionally, to a seed). The files use only the
// options description, bs, rw and time_based, so that every difference
// is the parser's.
func TestAgainstFio(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PARSER_FIO_DIFF"))
	if n <= 0 {
		t.Skip("set PARSER_FIO_DIFF=<files> to compare with fio")
	}
	if out, err := exec.Command("fio", "--version").Output(); err != nil || string(out) != "fio-3.33\n" {
		t.Skip("fio 3.33 not installed")
	}
	seed, err := strconv.ParseInt(os.Getenv("PARSER_FIO_SEED"), 10, 64)
	if err != nil {
		seed = int64(os.Getpid())
	}
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))

	dir := t.TempDir()
	write := func(name, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("inc.fio", "rw=read\n description=in c ;x\n")
	write("sub/inc2.fio", "bs=2k\ninclude inc3.fio\n")
	write("sub/inc3.fio", "bs=3k\r\n")
	write("hdr.fio", "bs=9k\n[zz]\nbs=1k\n")
	env := map[string]string{"A": "abc", "B": "bs=8k", "C": "x;y#z", "D": "$ncpus", "E": "  sp  ", "F": "time_based"}
	inDir := func(name string) string {
		if filepath.IsAbs(name) {
			return name
		}
		return filepath.Join(dir, name)
	}
	cfg := &Config{
		Env:    mapEnv(env),
		Open:   func(name string) (io.ReadCloser, error) { return os.Open(inDir(name)) },
		Exists: func(name string) bool { _, err := os.Stat(inDir(name)); return err == nil },
	}

	pick := func(l ...string) string { return l[r.Intn(len(l))] }
	ws := func() string { return pick("", "", " ", "\t", "  ", "\v", "\r") }
	junk := func() string {
		return pick("", "", "", " ; comment", " # hash", ";", "#x", "\x01", " \x02", "\x7f")
	}
	val := func() string {
		return pick("hello", "a b", " lead", "x=y", "${A}", "${C}", "${E}", "${UNDEF}z", "q${A", "$ncpus",
			"$pagesize*2", "$ncpus+1", "${D}*3", "é", "[x]", "include")
	}
	line := func() string {
		switch r.Intn(14) {
		case 0:
			return ws() + "[" + pick("a", "b", "global", "globalx", "", "a b", "j]", "k") + pick("]", "", "]]", "] x") + junk()
		case 1:
			return ws() + junk() + pick("", "", "[", "bs=4k\x00junk", "[a]\x00x")
		case 2:
			return ws() + "include" + pick(" inc.fio", "=inc.fio", " sub/inc2.fio", " hdr.fio") + junk()
		case 3:
			return ws() + "time_based" + ws() + junk()
		case 4:
			return ws() + "bs" + ws() + "=" + pick("4k", " 4k", "8k", "$pagesize", "$ncpus*4096", "${D}k") + ws() + junk()
		case 5:
			return "${B}" + junk()
		case 6:
			return "${F}" + junk()
		default:
			return ws() + "description" + ws() + "=" + val() + val() + ws() + junk()
		}
	}

	bad, crashes := 0, 0
	for i := 0; i < n; i++ {
		var b strings.Builder
		b.WriteString("[" + pick("a", "global") + "]\n")
		for k := r.Intn(12); k >= 0; k-- {
			b.WriteString(line() + pick("\n", "\n", "\r\n"))
		}
		in := b.String()
		write("t.fio", in)

		cmd := exec.Command("fio", "--showcmd", "t.fio")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		fioErr := cmd.Run()
		if cmd.ProcessState != nil && !cmd.ProcessState.Exited() {
			// fio 3.33 sometimes crashes after "No new sections in
			// included files" (and always on an included directory).
			crashes++
			continue
		}

		secs, err := cfg.ParseJobFile("t.fio", nil)
		var diags []string
		failed := err != nil
		for _, s := range secs {
			diags = append(diags, s.Notes...)
			for _, o := range s.Options {
				diags = append(diags, o.MathDiags...)
				switch {
				case o.Name != "description" && o.Name != "bs" && o.Name != "time_based" && o.Name != "rw":
					failed = true // fio: Bad option
				case o.MathFailed || o.HasValue && o.Value == "":
					failed = true // fio: failed parsing
				}
			}
		}
		ok := failed == (fioErr != nil)
		if ok && !failed {
			ok = stdout.String() == showcmd(secs) && strings.Join(diags, "\n") == strings.TrimSpace(stderr.String())
		}
		if !ok {
			bad++
			if bad <= 5 {
				t.Errorf("input %q\n fio:    %v %q %q\n parser: %v %q %q", in, fioErr, stdout.String(), stderr.String(), err, showcmd(secs), diags)
			}
		}
	}
	t.Logf("%d of %d files differ; fio crashed on %d", bad, n, crashes)
}

// showcmd renders sections as fio --showcmd does for the options used by
// TestAgainstFio. A global section prints all global options of the file
// so far (fio's quirk: "[global]\nbs=4k\n[global2]\n" shows --bs=4k twice).
func showcmd(secs []Section) string {
	var b strings.Builder
	if len(secs) > 0 {
		b.WriteString("fio ")
	}
	var globals []Option
	for _, s := range secs {
		opts := s.Options
		if s.Global {
			globals = append(globals, s.Options...)
			opts = globals
		} else {
			fmt.Fprintf(&b, "--name=%s ", s.Name)
		}
		for _, o := range opts {
			switch {
			case o.Name == "description":
				fmt.Fprintf(&b, "--%s=\"%s\" ", o.Name, o.Value)
			case o.HasValue:
				fmt.Fprintf(&b, "--%s=%s ", o.Name, o.Value)
			default:
				fmt.Fprintf(&b, "--%s ", o.Name)
			}
		}
	}
	return b.String() + "\n"
}

// TestArgsAgainstFio runs fio --parse-only with random command lines and
// compares getopt's complaints (or the first job file fio fails to open)
// with ParseArgs. Like TestAgainstFio it runs only when PARSER_FIO_DIFF
// is set.
func TestArgsAgainstFio(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PARSER_FIO_DIFF"))
	if n <= 0 {
		t.Skip("set PARSER_FIO_DIFF=<command lines> to compare with fio")
	}
	if out, err := exec.Command("fio", "--version").Output(); err != nil || string(out) != "fio-3.33\n" {
		t.Skip("fio 3.33 not installed")
	}
	seed, err := strconv.ParseInt(os.Getenv("PARSER_FIO_SEED"), 10, 64)
	if err != nil {
		seed = int64(os.Getpid())
	}
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	spec := loadSpec()
	words := []string{"--name=a", "--name", "b", "--bs=4k", "--bs", "8k", "-bs=4k", "--numj=2", "--nam=c", "--time_based",
		"--time_based=1", "--ioengine=libaio", "--userspace_reap", "--ioengine=psync", "--hipri", "--ioengine=pvsync2",
		"--rw=read", "--rw", "read", "--ver", "--siz=1m", "--size=1m", "--foo", "-n", "-Q", "-sQ", "-Qs", "--bsxx", "-x", "a",
		"--section=a", "job.fio", "other.fio", "--", "-", "-P", "-r", "--readonly", "-e", "never", "--eta=never", "-eAlways",
		"--name=global", "-name=d", "-blocksize=8k", "--thread", "1", "--numjobs", "2", "-o", "--out=/dev/null", "-ver", "--e", "-Qsv", "-v"}
	allowed := map[string]map[string]bool{
		"bs": {"4k": true, "8k": true}, "blocksize": {"8k": true}, "rw": {"read": true}, "numjobs": {"2": true},
		"size": {"1m": true}, "ioengine": {"libaio": true, "psync": true, "pvsync2": true}, "eta": {"never": true, "Always": true},
		"output": {"/dev/null": true}, "bssplit": {}, "time_based": {"1": true}, "userspace_reap": {}, "hipri": {}, "thread": {},
	}
	bad, skipped := 0, 0
	for i := 0; i < n; i++ {
		args := []string{"--parse-only"}
		for k := r.Intn(7); k >= 0; k-- {
			args = append(args, words[r.Intn(len(words))])
		}
		cl, perr := ParseArgs(args, spec)
		valid := true
		check := func(o Option) {
			if a, ok := allowed[o.Name]; ok && o.HasValue && !a[o.Value] {
				valid = false
			}
		}
		for _, o := range cl.Fio {
			check(o)
		}
		for _, s := range cl.Sections {
			for _, o := range s.Options {
				check(o)
			}
		}
		if !valid {
			skipped++
			continue
		}
		cmd := exec.Command("fio", args...)
		cmd.Dir = t.TempDir()
		cmd.Stdin = strings.NewReader("")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Run()
		got := strings.TrimSuffix(stderr.String(), "\n")
		exits := false // --version prints the version and exits
		for _, o := range cl.Fio {
			exits = exits || o.Name == "version"
		}
		var want string
		switch {
		case exits:
		case perr != nil:
			want = perr.Error()
		case len(cl.JobFiles) > 0 && cl.JobFiles[0] != "-":
			want = fmt.Sprintf("fio: unable to open '%s' job file", cl.JobFiles[0])
		}
		if got != want && !(want == "" && strings.HasPrefix(got, "fio: unable to open")) {
			bad++
			if bad <= 5 {
				t.Errorf("fio %q\n fio:    %.400q\n parser: %.400q", args, got, want)
			}
		}
	}
	t.Logf("%d of %d command lines differ (%d skipped: invalid values)", bad, n, skipped)
}
