package results

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofio/gofio/output"
)

// FuzzRead feeds Read arbitrary documents: it must return an error or a
// document that Merge, output.JSON and Compare take without a panic.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"fio version":"x","jobs":[{"jobname":"a","groupid":2147483647,"read":{"runtime":1,"total_ios":1,"clat_ns":{"N":5,"percentile":{"50.0":1},"bins":{"1":1}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Read(data)
		if err != nil {
			return
		}
		if m, err := Merge([]*Document{d}); err == nil {
			output.JSON(io.Discard, m, true)
			output.Normal(io.Discard, m)
		}
		if c, err := Compare([]*Document{d}, d, []Gate{{"p99", 1, 0}}); err == nil {
			c.WriteTable(io.Discard)
			c.WriteJSON(io.Discard)
		}
	})
}
