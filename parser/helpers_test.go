package parser

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// memFS is an in-memory file system for include tests.
type memFS map[string]string

func (m memFS) open(name string) (io.ReadCloser, error) {
	s, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	return io.NopCloser(strings.NewReader(s)), nil
}

func (m memFS) exists(name string) bool {
	_, ok := m[name]
	return ok
}

func (m memFS) config(env map[string]string) *Config {
	return &Config{
		Env:      mapEnv(env),
		Keywords: &testKW,
		Open:     m.open,
		Exists:   m.exists,
	}
}

// testKW are the keyword values of the machine the fio observations were
// made on.
var testKW = Keywords{PageSize: 4096, MBMemory: 24105, NCPUs: 2}

func mapEnv(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// render shows sections compactly: "[name]" then "key=value" or "key"
// (no value), joined by "|". Options whose value bc failed to compute are
// marked "!".
func render(secs []Section) string {
	var parts []string
	for _, s := range secs {
		parts = append(parts, "["+s.Name+"]")
		for _, o := range s.Options {
			l := o.Line()
			if o.MathFailed {
				l += "!"
			}
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "|")
}

func readFile(name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

func parseString(c *Config, text string) ([]Section, error) {
	return c.ParseJobFile("t.fio", bytes.NewReader([]byte(text)))
}
