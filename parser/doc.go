// Package parser turns fio 3.33 job files and command lines into ordered
// raw sections of (option, value, source position). It does not interpret
// option values; package jobspec does.
//
// # Job files
//
// ParseJobFile (and Config.ParseJobFile) reproduce fio's line reader, which
// was measured against the real fio 3.33 binary:
//
//   - Lines are read the way fgets reads them into an 8192-byte buffer: a
//     line longer than 8191 bytes is cut into several lines, and a NUL byte
//     ends the line's text.
//   - Leading white space (C isspace) is skipped. Everything from the first
//     ';' and from the first '#' is removed, then trailing white space and
//     control characters, except that the first character is never removed
//     (fio's trimming loop stops there). A line that consists only of
//     spaces and control characters is blank.
//   - A line starting with '[' is a section header. The name is the rest of
//     the line, at most 255 bytes, minus its last byte (fio assumes it is
//     ']'): "[job" names "jo", "[a] x" names "a] ". A line that is just "["
//     is not a header and fails as an option outside of a section.
//     Sections whose name starts with "global" (case-sensitive) are global.
//   - A line starting with "include" is an include directive; the file name
//     starts at the 9th byte whatever the 8th byte is (see includeName).
//     Includes nest up to DefaultMaxIncludeDepth levels (where fio runs out
//     of file descriptors under the usual ulimit -n of 1024). An included
//     directory, and more than 256 MiB from a file that is not a regular
//     file (/dev/zero), end the job file with an error (fio crashes or
//     reads forever).
//
// OpenJobFile and JobFile.Sections read a job file one section at a time,
// as fio handles it, so that a big file is never held whole.
//   - Any other line is an option line, "key" or "key=value". ${VAR}
//     substitution and the keywords $pagesize, $mb_memory and $ncpus are
//     applied to the whole line first, then the line is split at the first
//     '='. The key loses trailing blanks; the value keeps leading blanks
//     ("bs = 4k" has the value " 4k", which fio parses as 4 bytes). A line
//     without '=' is kept whole. Option names are case-sensitive in fio, so
//     they are not lower-cased here.
//   - When a keyword was replaced and the line contains + - * or /, the
//     value is computed as bc(1) would (bc.go).
//
// gopkg.in/ini.v1 is deliberately not used: it trims values (fio keeps
// leading blanks), validates "[...]" headers (fio drops the last byte
// instead), interprets quotes, back-quotes and continuation lines (fio has
// none), only strips comments at line starts or before values in
// configurable ways (fio cuts at any ';' or '#', headers and include lines
// included), has no notion of include directives placed between keys, and
// does not report the line number of a key. Every one of those is
// observable in fio's output, so the line reader is written here directly;
// it is about as long as the ini.v1 glue plus the pre- and post-passes it
// would have needed.
//
// # Command line
//
// ParseArgs emulates glibc getopt_long_only over fio's table of options
// (its own options, then the job options, then the private options of the
// ioengine in effect), as fio 3.33 does; see args.go.
package parser
