package engine

import (
	"reflect"
	"testing"
)

// TestExecArgs checks fio 3.33's expansion of exec's arguments (observed:
// blanks split them, runs of blanks included, quotes are kept as
// written; %r is the runtime in whole seconds, %n the job's name).
func TestExecArgs(t *testing.T) {
	tests := []struct {
		args    string
		runtime uint64 // µs
		shown   string
		argv    []string
	}{
		{" a  b %n %r 'c d'", 1e6, " a  b ej 1 'c d'", []string{"a", "b", "ej", "1", "'c", "d'"}},
		{"%r%r", 2500000, "22", []string{"22"}},
		{"-t %r", 0, "-t 0", []string{"-t", "0"}},
		{"", 0, "", []string{}},
	}
	for _, tt := range tests {
		shown, argv := execArgs(tt.args, "ej", tt.runtime)
		if shown != tt.shown || !reflect.DeepEqual(argv, tt.argv) {
			t.Errorf("%q: %q %q, want %q %q", tt.args, shown, argv, tt.shown, tt.argv)
		}
	}
}

// TestExecNotice checks the lines fio prints as an exec job starts.
func TestExecNotice(t *testing.T) {
	tests := []struct {
		opts []string
		want string
	}{
		{[]string{"program=/bin/sleep", "arguments=%r"}, "ej : program=/bin/sleep, arguments=%r\nej : Saving output of /bin/sleep 3 : stdout=ej.stdout stderr=ej.stderr"},
		{[]string{"program=/bin/true", "std_redirect=0"}, "ej : program=/bin/true, arguments=(null)\nej : Running /bin/true (null)"},
	}
	for _, tt := range tests {
		e, err := newExec(Config{Options: engineOpts(t, "exec", tt.opts...), Job: "ej", Runtime: 3e6})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.(Noticer).Notice("ej"); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.opts, got, tt.want)
		}
	}
}
