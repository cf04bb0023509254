package output

import (
	"bytes"
	"strconv"
	"strings"
)

// jsonWriter writes JSON text in the layout of fio's own serializer:
// two-space indentation, `"key" : value` pairs, ",\n" between members,
// an empty line inside empty containers, strings escaped only for '"'
// and '\', pairs with empty string values left out, and floats as "%f".
type jsonWriter struct {
	b bytes.Buffer
	// first[k] is set while the container at depth k has no member yet.
	first []bool
}

// sep starts a new member of the innermost container.
func (j *jsonWriter) sep() {
	n := len(j.first)
	if n == 0 {
		return
	}
	if j.first[n-1] {
		j.first[n-1] = false
		j.b.WriteByte('\n')
	} else {
		j.b.WriteString(",\n")
	}
	j.indent(n)
}

func (j *jsonWriter) indent(n int) {
	for range n {
		j.b.WriteString("  ")
	}
}

// key starts a pair of the innermost object.
func (j *jsonWriter) key(k string) {
	j.sep()
	j.b.WriteString(`"` + k + `" : `)
}

// open writes c ('{' or '[') and enters the container.
func (j *jsonWriter) open(c byte) {
	j.b.WriteByte(c)
	j.first = append(j.first, true)
}

// close leaves the innermost container, writing c ('}' or ']').
func (j *jsonWriter) close(c byte) {
	n := len(j.first)
	if j.first[n-1] {
		j.b.WriteByte('\n')
	}
	j.first = j.first[:n-1]
	j.b.WriteByte('\n')
	j.indent(n - 1)
	j.b.WriteByte(c)
}

// object starts an object-valued pair.
func (j *jsonWriter) object(k string) {
	j.key(k)
	j.open('{')
}

// array starts an array-valued pair.
func (j *jsonWriter) array(k string) {
	j.key(k)
	j.open('[')
}

// element starts an object element of the innermost array.
func (j *jsonWriter) element() {
	j.sep()
	j.open('{')
}

// elemUint writes an integer element of the innermost array.
func (j *jsonWriter) elemUint(v uint64) {
	j.sep()
	j.b.WriteString(strconv.FormatInt(int64(v), 10))
}

// str writes a string pair; an empty value writes nothing, as in fio.
func (j *jsonWriter) str(k, v string) {
	if v == "" {
		return
	}
	j.key(k)
	j.b.WriteString(quote(v))
}

// int writes an integer pair.
func (j *jsonWriter) int(k string, v int64) {
	j.key(k)
	j.b.WriteString(strconv.FormatInt(v, 10))
}

// uint writes an unsigned counter the way fio does: as a signed 64-bit
// integer.
func (j *jsonWriter) uint(k string, v uint64) { j.int(k, int64(v)) }

// float writes a float pair with "%f".
func (j *jsonWriter) float(k string, v float64) {
	j.key(k)
	j.b.WriteString(fmtF(v, 6))
}

// quote encloses s in double quotes, escaping only '"' and '\'.
func quote(s string) string {
	if !strings.ContainsAny(s, `"\`) {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.WriteByte('"')
	for k := 0; k < len(s); k++ {
		if s[k] == '"' || s[k] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[k])
	}
	b.WriteByte('"')
	return b.String()
}
