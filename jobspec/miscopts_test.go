package jobspec

import (
	"reflect"
	"strings"
	"testing"
)

func TestMiscOptions(t *testing.T) {
	tests := []struct {
		file        string
		want        MiscOptions
		direct      bool
		unsupported string // the first option gofio refuses, if any
	}{
		{"[a]\n", MiscOptions{}, false, ""},
		{"[a]\nfill_device=1\n", MiscOptions{FillDevice: true}, false, ""},
		{"[a]\nfill_fs=1\n", MiscOptions{FillDevice: true}, false, ""},
		{"[a]\nignore_error=EAGAIN,ENOSPC:122\n",
			MiscOptions{IgnoreError: [3][]int{{11}, {28, 122}, nil}, IgnoreErrorSet: true}, false, ""},
		{"[a]\nignore_error=,,84\n",
			MiscOptions{IgnoreError: [3][]int{nil, nil, {84}}, IgnoreErrorSet: true}, false, ""},
		// A later ignore_error replaces the lists of an earlier one.
		{"[a]\nignore_error=EIO\nignore_error=,EIO\n",
			MiscOptions{IgnoreError: [3][]int{nil, {5}, nil}, IgnoreErrorSet: true}, false, ""},
		{"[a]\nclocksource=clock_gettime\n", MiscOptions{Clock: ClockGettime}, false, ""},
		{"[a]\nclocksource=gettimeofday\n", MiscOptions{Clock: ClockGettimeofday}, false, ""},
		{"[a]\nunique_filename=0\n", MiscOptions{NoUniqueFilename: true}, false, ""},
		{"[a]\nlockfile=exclusive\n", MiscOptions{LockFile: LockExclusive}, false, ""},
		{"[a]\nlockfile=readwrite\n", MiscOptions{LockFile: LockReadWrite}, false, ""},
		{"[a]\nserialize_overlap=1\n", MiscOptions{SerializeOverlap: true}, false, ""},
		{"[a]\nhugepage-size=4m\n", MiscOptions{HugepageSize: 4 << 20}, false, ""},
		{"[a]\ngtod_cpu=0\n", MiscOptions{GtodCPU: 1}, false, ""},
		{"[a]\ngtod_cpu=-1\n", MiscOptions{GtodCPU: 1 << 32}, false, ""}, // fio's unsigned 4294967295
		{"[a]\nblock_error_percentiles=0\n", MiscOptions{}, false, ""},
		{"[a]\nblock_error_percentiles=1\n", MiscOptions{BlockErrorPercentiles: true}, false, ""},
		{"[a]\nwrite_barrier=4\n", MiscOptions{WriteBarrier: 4}, false, ""},
		{"[a]\natomic=1\n", MiscOptions{Atomic: true}, true, ""},
		{"[a]\nio_submit_mode=inline\n", MiscOptions{}, false, ""},
		{"[a]\nio_submit_mode=offload\n", MiscOptions{SubmitOffload: true}, false, ""},
	}
	for _, tt := range tests {
		s := &session{files: []string{tt.file}}
		p, err := s.run(t)
		if err != nil {
			t.Fatalf("%q: %v", tt.file, err)
		}
		j := p.Jobs[0]
		if tt.want.HugepageSize == 0 {
			tt.want.HugepageSize = DefaultHugepageSize // the row's default
		}
		if !reflect.DeepEqual(j.Misc, tt.want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tt.file, j.Misc, tt.want)
		}
		if j.Direct != tt.direct {
			t.Errorf("%q: direct = %v, want %v", tt.file, j.Direct, tt.direct)
		}
		err = p.Unsupported()
		if got := ""; err != nil {
			got = err.Error()
			if !strings.Contains(got, tt.unsupported) || tt.unsupported == "" {
				t.Errorf("%q: Unsupported() = %q, want %q", tt.file, got, tt.unsupported)
			}
		} else if tt.unsupported != "" {
			t.Errorf("%q: Unsupported() = nil, want %q", tt.file, tt.unsupported)
		}
	}
}

func TestHugePage(t *testing.T) {
	for _, tt := range []struct{ set, want uint64 }{{0, 2 << 20}, {4 << 20, 4 << 20}} {
		m := MiscOptions{HugepageSize: tt.set}
		if got := m.HugePage(); got != tt.want {
			t.Errorf("HugePage() with %d = %d, want %d", tt.set, got, tt.want)
		}
	}
}

// fio 3.33 knows the names of errors 1 to 34 only.
func TestIgnoreErrnoByName(t *testing.T) {
	tests := []struct {
		name string
		want int
		ok   bool
	}{
		{"EPERM", 1, true},
		{"ENOSPC", 28, true},
		{"ERANGE", 34, true},
		{"EDEADLK", 0, false},
		{"EDQUOT", 0, false},
		{"EILSEQ", 0, false},
		{"EFOO", 0, false},
	}
	for _, tt := range tests {
		e, ok := ignoreErrnoByName(tt.name)
		if int(e) != tt.want || ok != tt.ok {
			t.Errorf("ignoreErrnoByName(%q) = %d, %v; want %d, %v", tt.name, e, ok, tt.want, tt.ok)
		}
	}
}

func TestMemLen(t *testing.T) {
	tests := []struct {
		mem  MemType
		hp   uint64
		n    int
		want int
	}{
		{MemMalloc, 0, 5000, 5000},
		{MemMmapHuge, 0, 5000, 2 << 20},
		{MemShmHuge, 4 << 20, 5 << 20, 8 << 20},
		{MemMmapHuge, 2 << 20, 2 << 20, 2 << 20},
	}
	for _, tt := range tests {
		j := &Job{}
		j.Mem = tt.mem
		j.Misc.HugepageSize = tt.hp
		if got := j.MemLen(tt.n); got != tt.want {
			t.Errorf("MemLen(%v, hp %d, %d) = %d, want %d", tt.mem, tt.hp, tt.n, got, tt.want)
		}
	}
}
