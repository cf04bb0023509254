package output

import (
	"io"
	"strconv"
)

// JobHeader writes the line fio prints for a job as it is parsed,
//
//	NAME: (g=G): rw=RW, bs=(R) 4096B-4096B, (W) …, (T) …, ioengine=E, iodepth=D
//
// followed by a line "..." when the job has clones (numjobs above 1).
func JobHeader(w io.Writer, h Header) error {
	sf := SigFigs(h.SigFigs)
	pow2 := KBBase(h.KBBase) == 1024
	size := func(n uint64) string { return Num2Str(n, sf, 1, pow2, UnitByte) }
	pair := func(d int) string { return size(h.BSMin[d]) + "-" + size(h.BSMax[d]) }
	s := h.Name + ": (g=" + strconv.Itoa(h.GroupID) + "): rw=" + h.RW +
		", bs=(R) " + pair(0) + ", (W) " + pair(1)
	if h.BSIsSeqRand {
		s += ", bs_is_seq_rand"
	} else {
		s += ", (T) " + pair(2)
	}
	s += ", ioengine=" + h.IOEngine + ", iodepth=" + strconv.FormatUint(uint64(uint32(h.IODepth)), 10) + "\n"
	if h.Clones > 1 {
		s += "...\n"
	}
	_, err := io.WriteString(w, s)
	return err
}

// Version writes the "fio-3.33" line printed after the job headers.
func Version(w io.Writer) error {
	_, err := io.WriteString(w, FioVersion+"\n")
	return err
}

// Starting writes the line announcing the run: "Starting 1 process",
// "Starting 2 threads", "Starting 2 threads and 1 process". Counts
// include every numjobs clone.
func Starting(w io.Writer, threads, processes int) error {
	s := "Starting "
	if threads > 0 {
		s += plural(threads, "thread", "threads")
		if processes > 0 {
			s += " and "
		}
	}
	if processes > 0 {
		s += plural(processes, "process", "processes")
	}
	_, err := io.WriteString(w, s+"\n")
	return err
}

// LayingOut writes the line a job prints when it creates or extends its
// files: "NAME: Laying out IO file (1 file / 32MiB)" or
// "NAME: Laying out IO files (2 files / total 4MiB)"; bytes is the total
// to lay out, shown in whole MiB (truncated).
func LayingOut(w io.Writer, name string, files int, bytes uint64) error {
	s := name + ": Laying out IO file"
	if files > 1 {
		s += "s (" + strconv.Itoa(files) + " files / total "
	} else {
		s += " (" + strconv.Itoa(files) + " file / "
	}
	s += strconv.FormatUint(bytes/1048576, 10) + "MiB)\n"
	_, err := io.WriteString(w, s)
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
