package parser

import (
	"fmt"
	"math/big"
	"strings"
)

// EvalBC computes a job-file value the way fio 3.33 does when a line uses
// $pagesize, $mb_memory or $ncpus with arithmetic: fio pipes the value to
// the external bc(1) program and uses its output (minus the last newline)
// as the value. EvalBC emulates GNU bc 1.07 for one input line with
// scale=0: numbers (with GNU bc's digit rules: a lone A-Z is 10-35, inside
// longer numbers they count as 9), lower-case variables (all 0; ibase and
// obase are 10), "." (last, 0), + - * / % ^, unary minus, parentheses,
// relational and boolean operators, sqrt(), length(), scale() and ';'
// separated statements. Results are truncated to bc's scales and printed
// as bc prints them, including its line breaks ("\\\n" after 68
// characters). ok is false when bc would print nothing, which makes fio
// fail the line; diags are the messages bc would print on stderr.
//
// Not emulated: assignments, arrays, strings, user functions, control
// statements, read/quit/halt and the other statements of the bc language
// (reported as syntax errors), and bc's error recovery after the first
// syntax error of a line (later syntax errors are not reported). The adr=
// numbers of runtime errors are computed like GNU bc's byte code for the
// supported expressions.
func EvalBC(expr string) (out string, diags []string, ok bool) {
	p := &bcParser{}
	p.lex(expr + "\n")
	stmts, synErr := p.parseLine()
	// Illegal characters before the syntax error are reported before it.
	for _, il := range p.illegal {
		if synErr != nil && il.pos > synErr.pos {
			break
		}
		diags = append(diags, il.msg)
	}
	if synErr != nil {
		diags = append(diags, fmt.Sprintf("(standard_in) %d: syntax error", synErr.line))
		for _, il := range p.illegal {
			if il.pos > synErr.pos {
				diags = append(diags, il.msg)
			}
		}
	}
	if synErr != nil || len(p.illegal) > 0 {
		return "", diags, false
	}
	addr := 0
	for _, st := range stmts {
		addr = layout(st, addr) + 1 // + the print instruction
	}
	var outs []string
	vm := &bcVM{}
	for _, st := range stmts {
		v, err := vm.eval(st)
		diags = append(diags, vm.warnings...)
		vm.warnings = nil
		if err != nil {
			diags = append(diags, err.Error())
			break
		}
		outs = append(outs, formatBC(v))
	}
	if len(outs) == 0 {
		return "", diags, false
	}
	return strings.Join(outs, "\n"), diags, true
}

// bcNum is v / 10^scale. Like GNU bc's numbers it has a sign bit of its
// own, so a zero can be negative ("-0"): truncating a negative power to
// zero keeps the sign, and some operations carry it on.
type bcNum struct {
	v       *big.Int
	scale   int
	negZero bool // v is 0 but the sign bit says minus
}

var bigTen = big.NewInt(10)

func pow10(n int) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// rescale changes the scale, truncating toward zero when it shrinks; a
// negative number truncated to zero becomes -0.
func (a bcNum) rescale(s int) bcNum {
	switch {
	case s == a.scale:
		return a
	case s > a.scale:
		return bcNum{new(big.Int).Mul(a.v, pow10(s-a.scale)), s, a.negZero}
	default:
		v := new(big.Int).Quo(a.v, pow10(a.scale-s))
		return bcNum{v, s, a.negZero || v.Sign() == 0 && a.v.Sign() < 0}
	}
}

// plusZero drops a minus sign from a zero: products and quotients are
// never -0 in bc.
func (a bcNum) plusZero() bcNum {
	a.negZero = false
	return a
}

func bcInt(i int64) bcNum { return bcNum{v: big.NewInt(i)} }

func (a bcNum) isZero() bool { return a.v.Sign() == 0 }

func (a bcNum) minus() bool { return a.v.Sign() < 0 || a.negZero }

// intPart is the integer part of a, truncated.
func (a bcNum) intPart() *big.Int { return a.rescale(0).v }

// bcAdd adds or subtracts. A zero result is -0 only when bc's sign rules
// say so: both operands zero, the first one -0, and the signs equal
// (addition) or different (subtraction).
func bcAdd(a, b bcNum, sub bool) bcNum {
	s := max(a.scale, b.scale)
	x, y := a.rescale(s), b.rescale(s)
	r := bcNum{v: new(big.Int), scale: s}
	if sub {
		r.v.Sub(x.v, y.v)
	} else {
		r.v.Add(x.v, y.v)
	}
	if r.isZero() && a.isZero() && b.isZero() {
		r.negZero = a.negZero && (a.minus() != b.minus()) == sub
	}
	return r
}

func bcMul(a, b bcNum) bcNum {
	full := bcNum{v: new(big.Int).Mul(a.v, b.v), scale: a.scale + b.scale}
	return full.rescale(min(a.scale+b.scale, max(a.scale, b.scale))).plusZero()
}

// bcDiv divides at scale 0 (bc's default scale).
func bcDiv(a, b bcNum) bcNum {
	n := new(big.Int).Mul(a.v, pow10(b.scale))
	d := new(big.Int).Mul(b.v, pow10(a.scale))
	return bcNum{v: n.Quo(n, d)}
}

func bcMod(a, b bcNum) bcNum {
	q := bcDiv(a, b)
	return bcAdd(a, bcNum{v: new(big.Int).Mul(q.v, b.v), scale: b.scale}, true)
}

// bcCompare is bc's comparison: the sign bits first (so -0 < 0), then
// the values.
func bcCompare(a, b bcNum) int {
	if a.minus() != b.minus() {
		if a.minus() {
			return -1
		}
		return 1
	}
	return bcAdd(a, b, true).v.Sign()
}

type bcRuntimeError struct {
	addr int
	msg  string
}

func (e *bcRuntimeError) Error() string {
	return fmt.Sprintf("Runtime error (func=(main), adr=%d): %s", e.addr, e.msg)
}

// maxBCDigits bounds the size of a power (bc itself would grind on).
const maxBCDigits = 50000

func (vm *bcVM) raise(a, b bcNum, addr int) (bcNum, error) {
	if b.scale != 0 {
		vm.warnings = append(vm.warnings, fmt.Sprintf("Runtime warning (func=(main), adr=%d): non-zero scale in exponent", addr))
	}
	e := b.intPart()
	if !e.IsInt64() || e.Int64() == -1<<63 {
		return bcNum{}, &bcRuntimeError{addr, "exponent too large in raise"}
	}
	ex := e.Int64()
	if ex == 0 {
		return bcInt(1), nil
	}
	neg := ex < 0
	if neg {
		ex = -ex
	}
	digits := int64(len(a.v.Text(10)))
	// Compare by division: ex*digits can overflow int64 (exponents up to
	// 9.2e18 reach this point).
	if a.v.CmpAbs(pow10(a.scale)) > 0 && ex > maxBCDigits/digits || a.scale > 0 && ex > maxBCDigits/int64(a.scale) {
		return bcNum{}, &bcRuntimeError{addr, "exponent too large in raise"}
	}
	if ex == 1 && !neg {
		return a, nil // bc copies the number, -0 included
	}
	p := bcNum{v: new(big.Int).Exp(a.v, big.NewInt(ex), nil), scale: a.scale * int(ex)}
	if neg {
		if p.isZero() {
			return bcNum{}, &bcRuntimeError{addr, "divide by zero"}
		}
		return bcDiv(bcInt(1), p), nil
	}
	return p.rescale(min(a.scale*int(ex), a.scale)), nil
}

// formatBC prints a number as bc does with obase=10.
func formatBC(a bcNum) string {
	if a.isZero() {
		if a.negZero {
			return "-0"
		}
		return "0"
	}
	var s strings.Builder
	abs := new(big.Int).Abs(a.v)
	if a.v.Sign() < 0 {
		s.WriteByte('-')
	}
	digits := abs.Text(10)
	if a.scale > 0 {
		if len(digits) <= a.scale {
			digits = strings.Repeat("0", a.scale-len(digits)+1) + digits
		}
		ip, fp := digits[:len(digits)-a.scale], digits[len(digits)-a.scale:]
		if ip != "0" {
			s.WriteString(ip)
		}
		s.WriteByte('.')
		s.WriteString(fp)
	} else {
		s.WriteString(digits)
	}
	// bc breaks long numbers with "\\\n" after 68 characters.
	str := s.String()
	if len(str) <= 68 {
		return str
	}
	var w strings.Builder
	for len(str) > 68 {
		w.WriteString(str[:68])
		w.WriteString("\\\n")
		str = str[68:]
	}
	w.WriteString(str)
	return w.String()
}

// Lexer.

type bcTokKind int

const (
	bcEOL    bcTokKind = iota // the newline that ends the input
	bcNumTok                  // number
	bcIdent                   // lower-case name or keyword
	bcOp                      // operator or punctuation
	bcString                  // "..." (not supported: syntax error)
)

type bcTok struct {
	kind bcTokKind
	text string
	pos  int
}

type bcIllegal struct {
	pos int
	msg string
}

type bcParser struct {
	toks    []bcTok
	illegal []bcIllegal
	i       int
}

func (p *bcParser) lex(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\n':
			p.toks = append(p.toks, bcTok{bcEOL, "\n", i})
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n' && i+2 < len(s):
			i += 2 // line continuation
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s) - 1
			} else {
				i += j + 4
			}
		case c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c == '.':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'A' && s[j] <= 'Z') {
				j++
			}
			if j < len(s) && s[j] == '.' {
				j++
				for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'A' && s[j] <= 'Z') {
					j++
				}
			}
			p.toks = append(p.toks, bcTok{bcNumTok, s[i:j], i})
			i = j
		case c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
				j++
			}
			p.toks = append(p.toks, bcTok{bcIdent, s[i:j], i})
			i = j
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				p.illegal = append(p.illegal, bcIllegal{i, "(standard_in) 1: illegal character: \""})
				i++
				continue
			}
			p.toks = append(p.toks, bcTok{bcString, s[i : i+j+2], i})
			i += j + 2
		default:
			if op := bcOperator(s[i:]); op != "" {
				p.toks = append(p.toks, bcTok{bcOp, op, i})
				i += len(op)
				continue
			}
			var shown string
			switch {
			case c < ' ':
				shown = "^" + string(rune(c+'@'))
			case c > '~':
				shown = fmt.Sprintf("\\%03o", c)
			default:
				shown = string(rune(c))
			}
			p.illegal = append(p.illegal, bcIllegal{i, "(standard_in) 1: illegal character: " + shown})
			i++
		}
	}
}

func bcOperator(s string) string {
	for _, op := range [...]string{"++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||"} {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	if strings.ContainsRune("+-*/%^=!<>&()[]{},;", rune(s[0])) {
		return s[:1]
	}
	return ""
}

// Parser: builds expression trees; any unsupported construct is a syntax
// error.

type bcNode struct {
	op   string // "num", "var", "neg", "not", "call", or a binary operator
	num  bcNum
	text string // number text, variable or function name
	l, r *bcNode
	end  int // see layout
}

type bcSyntaxError struct {
	pos, line int
}

func (p *bcParser) peek() bcTok { return p.toks[p.i] }

func (p *bcParser) fail() *bcSyntaxError {
	t := p.peek()
	line := 1
	if t.kind == bcEOL {
		line = 2
	}
	return &bcSyntaxError{t.pos, line}
}

func (p *bcParser) isOp(op string) bool {
	t := p.peek()
	return t.kind == bcOp && t.text == op
}

func (p *bcParser) parseLine() ([]*bcNode, *bcSyntaxError) {
	var stmts []*bcNode
	for {
		if p.peek().kind == bcEOL {
			return stmts, nil
		}
		if p.isOp(";") {
			p.i++
			continue
		}
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, n)
		if p.isOp(";") {
			p.i++
			continue
		}
		if p.peek().kind != bcEOL {
			return nil, p.fail()
		}
	}
}

func (p *bcParser) expr() (*bcNode, *bcSyntaxError) { return p.binary(0) }

var bcLevels = [...][]string{
	{"||"},
	{"&&"},
	nil, // '!'
	{"<", ">", "<=", ">=", "==", "!="},
	{"+", "-"},
	{"*", "/", "%"},
}

func (p *bcParser) binary(level int) (*bcNode, *bcSyntaxError) {
	if level == len(bcLevels) {
		return p.power()
	}
	if bcLevels[level] == nil {
		if p.isOp("!") {
			p.i++
			n, err := p.binary(level)
			if err != nil {
				return nil, err
			}
			return &bcNode{op: "not", l: n}, nil
		}
		return p.binary(level + 1)
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		found := false
		if t.kind == bcOp {
			for _, op := range bcLevels[level] {
				if t.text == op {
					found = true
				}
			}
		}
		if !found {
			return l, nil
		}
		p.i++
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = &bcNode{op: t.text, l: l, r: r}
	}
}

func (p *bcParser) power() (*bcNode, *bcSyntaxError) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	if p.isOp("^") {
		p.i++
		r, err := p.power()
		if err != nil {
			return nil, err
		}
		return &bcNode{op: "^", l: l, r: r}, nil
	}
	return l, nil
}

func (p *bcParser) unary() (*bcNode, *bcSyntaxError) {
	if p.isOp("-") {
		p.i++
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &bcNode{op: "neg", l: n}, nil
	}
	return p.primary()
}

var bcKeywords = map[string]bool{
	"auto": true, "break": true, "continue": true, "define": true, "else": true, "for": true,
	"halt": true, "if": true, "limits": true, "print": true, "quit": true, "read": true,
	"return": true, "void": true, "warranty": true, "while": true,
}

func (p *bcParser) primary() (*bcNode, *bcSyntaxError) {
	t := p.peek()
	switch t.kind {
	case bcNumTok:
		p.i++
		if t.text == "." {
			return &bcNode{op: "last"}, nil // the last value printed: none yet
		}
		return &bcNode{op: "num", num: bcParseNum(t.text), text: t.text}, nil
	case bcIdent:
		if bcKeywords[t.text] {
			return nil, p.fail()
		}
		p.i++
		if p.isOp("(") {
			switch t.text {
			case "sqrt", "length", "scale":
			default:
				return nil, p.fail() // user functions are not supported
			}
			p.i++
			arg, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.isOp(")") {
				return nil, p.fail()
			}
			p.i++
			return &bcNode{op: "call", text: t.text, l: arg}, nil
		}
		if t.text == "sqrt" || t.text == "length" {
			return nil, p.fail()
		}
		return &bcNode{op: "var", text: t.text}, nil
	case bcOp:
		if t.text == "(" {
			p.i++
			n, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.isOp(")") {
				return nil, p.fail()
			}
			p.i++
			return n, nil
		}
	}
	return nil, p.fail()
}

// bcParseNum converts a number token with ibase=10.
func bcParseNum(text string) bcNum {
	digit := func(c byte) int64 {
		if c >= 'A' {
			if len(text) == 1 {
				return int64(c-'A') + 10
			}
			return 9
		}
		return int64(c - '0')
	}
	v := new(big.Int)
	scale := 0
	seenPoint := false
	for i := 0; i < len(text); i++ {
		if text[i] == '.' {
			seenPoint = true
			continue
		}
		v.Mul(v, bigTen)
		v.Add(v, big.NewInt(digit(text[i])))
		if seenPoint {
			scale++
		}
	}
	return bcNum{v: v, scale: scale}
}

// Evaluation.

type bcVM struct {
	warnings []string
}

// layout gives each node the byte-code address that follows its code in
// GNU bc (runtime errors report it) and returns it. Loading a number takes
// numSize bytes, a variable 2, an operator 1, a function call 2; && adds 5
// bytes between its operands and 6 after them, || 3 and 8.
func layout(n *bcNode, addr int) int {
	switch n.op {
	case "num":
		addr += numSize(n.text)
	case "var", "last":
		addr += 2
	case "neg", "not":
		addr = layout(n.l, addr) + 1
	case "call":
		addr = layout(n.l, addr) + 2
	case "&&":
		addr = layout(n.r, layout(n.l, addr)+5) + 6
	case "||":
		addr = layout(n.r, layout(n.l, addr)+3) + 8
	default:
		addr = layout(n.r, layout(n.l, addr)) + 1
	}
	n.end = addr
	return addr
}

// numSize is the size of GNU bc's load-constant instruction for a number
// token: leading zeros are dropped, 0 and 1 have one-byte codes, other
// numbers are "K<digits>:".
func numSize(text string) int {
	t := strings.TrimLeft(text, "0")
	if t == "" {
		t = "0"
	}
	if t == "0" || t == "1" {
		return 1
	}
	return len(t) + 2
}

func (vm *bcVM) eval(n *bcNode) (bcNum, error) {
	switch n.op {
	case "num":
		return n.num, nil
	case "last":
		return bcInt(0), nil
	case "var":
		if n.text == "ibase" || n.text == "obase" {
			return bcInt(10), nil
		}
		return bcInt(0), nil
	case "neg":
		v, err := vm.eval(n.l)
		if err != nil {
			return v, err
		}
		return bcNum{v: new(big.Int).Neg(v.v), scale: v.scale}, nil
	case "not":
		v, err := vm.eval(n.l)
		if err != nil {
			return v, err
		}
		return bcBool(v.isZero()), nil
	case "call":
		v, err := vm.eval(n.l)
		if err != nil {
			return v, err
		}
		switch n.text {
		case "scale":
			return bcInt(int64(v.scale)), nil
		case "length":
			if v.isZero() {
				return bcInt(int64(max(1, v.scale))), nil
			}
			d := len(new(big.Int).Abs(v.v).Text(10))
			return bcInt(int64(max(d, v.scale))), nil
		default: // sqrt
			if v.minus() {
				return v, &bcRuntimeError{n.end, "Square root of a negative number"}
			}
			if v.isZero() || bcCompare(v, bcInt(1)) == 0 {
				return bcNum{v: v.intPart()}, nil // bc returns exactly 0 or 1
			}
			rs := max(0, v.scale)
			x := new(big.Int).Mul(v.v, pow10(2*rs-v.scale))
			return bcNum{v: x.Sqrt(x), scale: rs}, nil
		}
	}
	a, err := vm.eval(n.l)
	if err != nil {
		return a, err
	}
	// bc short-circuits; a false && gives the zero operand itself.
	if n.op == "&&" && a.isZero() {
		return a, nil
	}
	if n.op == "||" && !a.isZero() {
		return bcInt(1), nil
	}
	b, err := vm.eval(n.r)
	if err != nil {
		return b, err
	}
	switch n.op {
	case "+":
		return bcAdd(a, b, false), nil
	case "-":
		return bcAdd(a, b, true), nil
	case "*":
		return bcMul(a, b), nil
	case "/":
		if b.isZero() {
			return b, &bcRuntimeError{n.end, "Divide by zero"}
		}
		return bcDiv(a, b), nil
	case "%":
		if b.isZero() {
			return b, &bcRuntimeError{n.end, "Modulo by zero"}
		}
		return bcMod(a, b), nil
	case "^":
		return vm.raise(a, b, n.end)
	case "&&":
		if b.isZero() {
			return b, nil
		}
		return bcInt(1), nil
	case "||":
		return bcBool(!b.isZero()), nil
	}
	c := bcCompare(a, b)
	switch n.op {
	case "<":
		return bcBool(c < 0), nil
	case ">":
		return bcBool(c > 0), nil
	case "<=":
		return bcBool(c <= 0), nil
	case ">=":
		return bcBool(c >= 0), nil
	case "==":
		return bcBool(c == 0), nil
	default: // "!="
		return bcBool(c != 0), nil
	}
}

func bcBool(b bool) bcNum {
	if b {
		return bcInt(1)
	}
	return bcInt(0)
}
