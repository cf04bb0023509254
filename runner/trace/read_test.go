package trace

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestTraceParse(t *testing.T) {
	const v2, v3 = "fio version 2 iolog\n", "fio version 3 iolog\n"
	tests := []struct {
		name  string
		trace string
		want  []Action
		files []string
		warn  string // fio's messages, as fio 3.33 prints them
	}{
		{"v2 file and I/O actions", v2 + "/f add\n/f open\n/f read 0 4096\n/f write 8192 512\n/f trim 4096 4096\n/f sync 0 0\n/f datasync 0 0\n/f close\n",
			[]Action{{Kind: Add}, {Kind: Open}, {Kind: Read, Len: 4096}, {Kind: Write, Off: 8192, Len: 512},
				{Kind: Trim, Off: 4096, Len: 4096}, {Kind: Sync}, {Kind: Datasync}, {Kind: Close}}, []string{"/f"}, ""},
		{"v2 wait is in ms (fio 3.33)", v2 + "/f wait 20 0\n", []Action{{Kind: Wait, TS: 20000}}, []string{"/f"}, ""},
		{"v3 timestamps", v3 + "10 /f add\n331 /f open\n336 /f read 45056 4096\n", []Action{{TS: 10, Kind: Add}, {TS: 331, Kind: Open},
			{TS: 336, Kind: Read, Off: 45056, Len: 4096}}, []string{"/f"}, ""},
		{"two files", v2 + "/a add\n/b add\n/b write 0 1\n", []Action{{Kind: Add}, {Kind: Add, File: 1}, {Kind: Write, File: 1, Len: 1}},
			[]string{"/a", "/b"}, ""},
		{"unknown I/O action", v2 + "/f bogus 0 4096\n", nil, []string{}, "fio: bad iolog file action: bogus\n"},
		{"offset that does not read: a file action", v2 + "/f read x 4096\n", nil, []string{}, "fio: bad iolog file action: read\n"},
		{"unknown file action", v2 + "/f frob\n", nil, []string{}, "fio: bad iolog file action: frob\n"},
		{"one field", v2 + "junk\n", nil, []string{}, "bad iolog2: junk\n\n"},
		{"three fields", v2 + "/f read 0\n", nil, []string{}, "bad iolog2: /f read 0\n\n"},
		{"extra fields ignored", v2 + "/f read 0 4096 7\n", []Action{{Kind: Read, Len: 4096}}, []string{"/f"}, ""},
		{"v3 without timestamp", v3 + "/f read 0 4096\n", nil, []string{}, "bad iolog3: /f read 0 4096\n\n"},
		{"v3 wait", v3 + "3 /f wait 10 0\n", nil, []string{}, "iolog: ignoring wait command with version 3 for file /f\n"},
		{"appended v3 log: second header is a bad line", v3 + "5 /f add\n" + v3 + "7 /f add\n", []Action{{TS: 5, Kind: Add}, {TS: 7, Kind: Add}},
			[]string{"/f"}, "bad iolog3: fio version 3 iolog\n\n"},
		{"appended v2 log", v2 + "/f add\n" + v2, []Action{{Kind: Add}}, []string{"/f"}, "bad iolog2: fio version 2 iolog\n\n"},
		{"v3 line after a wait keeps its action", v3 + "3 /f wait 10 0\n/g read 0 4096\n", nil, []string{},
			"iolog: ignoring wait command with version 3 for file /f\niolog: ignoring wait command with version 3 for file /f\n"},
		{"last line without newline", v2 + "/f read 1 2", []Action{{Kind: Read, Off: 1, Len: 2}}, []string{"/f"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var warn bytes.Buffer
			r, err := newReader(strings.NewReader(tc.trace), &warn, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []Action
			for {
				a, ok, err := r.next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				got = append(got, a)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("actions:\n got %+v\nwant %+v", got, tc.want)
			}
			if names := append([]string{}, r.names...); !reflect.DeepEqual(names, tc.files) {
				t.Errorf("files: got %q, want %q", names, tc.files)
			}
			if warn.String() != tc.warn {
				t.Errorf("messages: got %q, want %q", warn.String(), tc.warn)
			}
		})
	}
}

func TestTraceHeader(t *testing.T) {
	tests := []struct {
		head    string
		version int
		err     string
	}{
		{"fio version 2 iolog\n", 2, ""},
		{"fio version 3 iolog\n", 3, ""},
		{"fio version 1 iolog\n", 0, "fio: iolog version 1 is no longer supported"},
		{"garbage\n", 0, "fio: iolog version 1 is no longer supported"},
	}
	for _, tc := range tests {
		r, err := newReader(strings.NewReader(tc.head), &bytes.Buffer{}, "")
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("header %q: error %v, want %q", tc.head, err, tc.err)
		case tc.err == "" && (err != nil || r.version != tc.version):
			t.Errorf("header %q: %v, %v; want version %d", tc.head, r, err, tc.version)
		}
	}
}

func TestTraceRedirect(t *testing.T) {
	r, err := newReader(strings.NewReader("fio version 2 iolog\n/a add\n/b add\n/b read 0 1\n"), &bytes.Buffer{}, "/dev/x")
	if err != nil {
		t.Fatal(err)
	}
	for {
		a, ok, _ := r.next()
		if !ok {
			break
		}
		if a.File != 0 {
			t.Errorf("redirected action %+v: file %d, want 0", a, a.File)
		}
	}
	if !reflect.DeepEqual(r.names, []string{"/dev/x"}) {
		t.Errorf("files %q, want [/dev/x]", r.names)
	}
}
