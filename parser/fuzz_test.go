package parser

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// canonical renders sections as a job file that parses back to the same
// sections. Keys and values go through ${VAR} substitution (the returned
// environment holds them) because a job file cannot spell every value
// literally: fio has no quoting, so values with ';', '#', a newline (bc's
// line breaks) or trailing blanks (from ${VAR}) only survive that way.
func canonical(secs []Section) (string, map[string]string) {
	env := map[string]string{}
	var b strings.Builder
	n := 0
	for _, s := range secs {
		fmt.Fprintf(&b, "[%s]\n", s.Name)
		for _, o := range s.Options {
			k, v := fmt.Sprintf("K%d", n), fmt.Sprintf("V%d", n)
			n++
			env[k] = o.Name
			if o.HasValue {
				env[v] = o.Value
				fmt.Fprintf(&b, "${%s}=${%s}\n", k, v)
			} else {
				fmt.Fprintf(&b, "${%s}\n", k)
			}
		}
	}
	return b.String(), env
}

type plainOption struct {
	Name, Value string
	HasValue    bool
}

type plainSection struct {
	Name    string
	Global  bool
	Options []plainOption
}

func plain(secs []Section) []plainSection {
	out := []plainSection{}
	for _, s := range secs {
		p := plainSection{Name: s.Name, Global: s.Global, Options: []plainOption{}}
		for _, o := range s.Options {
			p.Options = append(p.Options, plainOption{o.Name, o.Value, o.HasValue})
		}
		out = append(out, p)
	}
	return out
}

func fuzzConfig(env map[string]string) *Config {
	c := memFS{
		"inc.fio":  "rw=read\niodepth=$ncpus*2\n",
		"sec.fio":  "bs=1k\n[x]\n",
		"deep.fio": "include inc.fio\nbs=4k ; c\n",
	}.config(env)
	c.MaxIncludeDepth = 8
	return c
}

var fuzzEnv = map[string]string{"A": "x", "B": "bs=4k", "C": ";#", "D": "$ncpus", "E": "  "}

func FuzzParseJobFile(f *testing.F) {
	files, _ := filepath.Glob("testdata/examples/*.fio")
	files = append(files, "testdata/include/top.fio", "testdata/include/inc2.fio")
	for _, name := range files {
		f.Add(readFile(name))
	}
	for _, s := range []string{
		"[a]\ninclude inc.fio\ninclude deep.fio\ninclude sec.fio\n",
		"[a]\nsize=${D}*4k\nbs=$pagesize/2\n${B}\n${C}=${E}\n",
		"[job\n[]\n[global]\n=\n==\ninclude\ninclude \n",
		"[a]\nbs=4k\x00x\r\n\x01\n\v[b]\n",
		"[a]\ndescription=$ncpus*2^300\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		secs, err := parseString(fuzzConfig(fuzzEnv), string(data))
		for _, s := range secs {
			if strings.ContainsAny(s.Name, "\n;#\x00") || len(s.Name) > 254 {
				t.Fatalf("odd section name %q", s.Name)
			}
			for _, o := range s.Options {
				if o.HasValue && strings.Contains(o.Name, "=") {
					t.Fatalf("key with '=': %q", o.Name)
				}
			}
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
		text, env := canonical(secs)
		for k, v := range env {
			if strings.HasPrefix(k, "V") && len(v)+len(env["K"+k[1:]])+1 > maxLine {
				return // does not fit fio's line buffer
			}
		}
		again, err := parseString(fuzzConfig(env), text)
		if err != nil {
			t.Fatalf("canonical form does not parse: %v\n%q", err, text)
		}
		if got, want := plain(again), plain(secs); !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip differs\n got  %+v\n want %+v\n text %q", got, want, text)
		}
	})
}
