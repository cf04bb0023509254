package jobspec

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// This file evaluates the arithmetic expressions upstream fio accepts
// wherever a number is expected, when the value starts with '(' (fio's
// HOWTO, "Job file parameters"; reference: cli-and-jobfiles.md §2.9).
// Debian's fio 3.33 is built without them and refuses such values;
// gofio accepts them as upstream fio does (docs/compat.md).
//
// The syntax: integers, decimals, hexadecimal 0x numbers and exponent
// notation; + - * / % and ^ (power); unary minus; parentheses. A unit may
// follow a number: k, m, g, t, p, optionally followed by b, are powers of
// 1024 and kib, mib, gib, pib powers of 1000 in sizes; us, ms, s, m
// (minutes), h and d in times, where a number without a unit is in
// microseconds. Text after the closing parenthesis, and anything from a
// ':', ',' or '#' inside it, is ignored.

var errExpr = errors.New("bad arithmetic expression")

// exprValue is an intermediate result: an integer, or a float once a
// decimal number takes part.
type exprValue struct {
	i       int64
	f       float64
	isFloat bool
}

func (v exprValue) float() float64 {
	if v.isFloat {
		return v.f
	}
	return float64(v.i)
}

// int64 is the final value: floats are truncated.
func (v exprValue) int64() int64 {
	if v.isFloat {
		return int64(v.f)
	}
	return v.i
}

// evalExpr evaluates the expression at the start of s, which starts with
// '('. time selects time units (the result is in microseconds).
func evalExpr(s string, time bool) (int64, error) {
	if i := strings.IndexAny(s, ":,#"); i >= 0 {
		s = s[:i]
	}
	e := &exprParser{s: s, time: time}
	e.skip()
	if e.peek() != '(' {
		return 0, errExpr
	}
	v, err := e.primary()
	if err != nil {
		return 0, err
	}
	if v.isFloat && !(v.f > -(1<<63) && v.f < 1<<63) {
		return 0, errExpr // out of 64 bits, or not a number
	}
	return v.int64(), nil
}

type exprParser struct {
	s    string
	pos  int
	time bool
}

func (e *exprParser) skip() {
	for e.pos < len(e.s) && isCSpace(e.s[e.pos]) {
		e.pos++
	}
}

func (e *exprParser) peek() byte {
	e.skip()
	if e.pos < len(e.s) {
		return e.s[e.pos]
	}
	return 0
}

// sum := product (('+' | '-') product)*
func (e *exprParser) sum() (exprValue, error) {
	v, err := e.product()
	for err == nil {
		op := e.peek()
		if op != '+' && op != '-' {
			return v, nil
		}
		e.pos++
		var w exprValue
		if w, err = e.product(); err == nil {
			v, err = arith(op, v, w)
		}
	}
	return v, err
}

// product := power (('*' | '/' | '%') power)*
func (e *exprParser) product() (exprValue, error) {
	v, err := e.power()
	for err == nil {
		op := e.peek()
		if op != '*' && op != '/' && op != '%' {
			return v, nil
		}
		e.pos++
		var w exprValue
		if w, err = e.power(); err != nil {
			break
		}
		if (op == '/' || op == '%') && w.float() == 0 {
			return v, errExpr
		}
		v, err = arith(op, v, w)
	}
	return v, err
}

// power := unary ('^' power)?
func (e *exprParser) power() (exprValue, error) {
	v, err := e.unary()
	if err != nil || e.peek() != '^' {
		return v, err
	}
	e.pos++
	w, err := e.power()
	if err != nil {
		return v, err
	}
	if !v.isFloat && !w.isFloat && w.i >= 0 {
		r := exprValue{i: 1}
		for range min(w.i, 64) {
			if r, err = arith('*', r, v); err != nil {
				return r, err
			}
		}
		return r, nil
	}
	return exprValue{f: math.Pow(v.float(), w.float()), isFloat: true}, nil
}

// unary := '-' unary | primary
func (e *exprParser) unary() (exprValue, error) {
	if e.peek() == '-' {
		e.pos++
		v, err := e.unary()
		if v.i == math.MinInt64 {
			return v, errExpr
		}
		v.i, v.f = -v.i, -v.f
		return v, err
	}
	return e.primary()
}

// primary := '(' sum ')' | number unit?
func (e *exprParser) primary() (exprValue, error) {
	if e.peek() == '(' {
		e.pos++
		v, err := e.sum()
		if err != nil {
			return v, err
		}
		if e.peek() != ')' {
			return v, errExpr
		}
		e.pos++
		return v, nil
	}
	e.skip()
	start := e.pos
	var v exprValue
	if strings.HasPrefix(strings.ToLower(e.s[e.pos:]), "0x") {
		n, k, err := cStrtoll(e.s[e.pos:], 16)
		if k <= 2 || err != nil {
			return v, errExpr
		}
		v.i, e.pos = n, e.pos+k
	} else {
		end := scanNumber(e.s, e.pos, false)
		if end == start {
			return v, errExpr
		}
		text := e.s[start:end]
		if strings.ContainsAny(text, ".eE") {
			f, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return v, errExpr
			}
			v = exprValue{f: f, isFloat: true}
		} else {
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return v, errExpr
			}
			v.i = n
		}
		e.pos = end
	}
	if m := e.unit(); m != 1 {
		return arith('*', v, exprValue{i: m})
	}
	return v, nil
}

// unit reads a unit after a number and returns its multiplier.
func (e *exprParser) unit() int64 {
	rest := strings.ToLower(e.s[e.pos:])
	n := 0
	for n < len(rest) && rest[n] >= 'a' && rest[n] <= 'z' {
		n++
	}
	word := rest[:n]
	var m int64
	if e.time {
		m = map[string]int64{"us": usec, "usec": usec, "ms": msec, "msec": msec, "s": second, "m": minute, "h": hour, "d": day}[word]
	} else {
		m = sizeUnits[word]
	}
	if m == 0 {
		return 1
	}
	e.pos += n
	return m
}

// sizeUnits are the units of sizes in expressions.
var sizeUnits = func() map[string]int64 {
	out := map[string]int64{}
	for i, p := range []string{"k", "m", "g", "t", "p"} {
		bin, dec := int64(1), int64(1)
		for range i + 1 {
			bin *= 1024
			dec *= 1000
		}
		out[p], out[p+"b"] = bin, bin
		if p != "t" {
			out[p+"ib"] = dec
		}
	}
	return out
}()

// arith applies a binary operator. An integer result that does not fit
// in 64 bits is an error, as upstream fio refuses such values
// (fio: failed parsing).
func arith(op byte, a, b exprValue) (exprValue, error) {
	if a.isFloat || b.isFloat {
		x, y := a.float(), b.float()
		switch op {
		case '+':
			return exprValue{f: x + y, isFloat: true}, nil
		case '-':
			return exprValue{f: x - y, isFloat: true}, nil
		case '*':
			return exprValue{f: x * y, isFloat: true}, nil
		case '/':
			return exprValue{f: x / y, isFloat: true}, nil
		}
		return exprValue{f: math.Mod(x, y), isFloat: true}, nil
	}
	x, y := a.i, b.i
	var r int64
	ok := true
	switch op {
	case '+':
		r = x + y
		ok = (r > x) == (y > 0)
	case '-':
		r = x - y
		ok = (r < x) == (y > 0)
	case '*':
		r = x * y
		ok = x == 0 || (r/x == y && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64))
	case '/':
		r = x / y
		ok = !(x == math.MinInt64 && y == -1)
	default:
		r = x % y
	}
	if !ok {
		return exprValue{}, errExpr
	}
	return exprValue{i: r}, nil
}
