package parser

import (
	"strings"
	"unicode/utf8"
)

// DidYouMean picks the name fio suggests for an unknown option: the one
// with the smallest edit (Levenshtein) distance to typed, the first in
// table order on ties, provided the distance is at most half the length
// of typed, rounded up. typed is the key of a job-file line, or an argument
// without its leading dashes but with any "=value" (so "--foo=bar" gets no
// suggestion while "--foo" gets "flow"). It returns "" when nothing is
// close enough.
func DidYouMean(typed string, names []string) string {
	return Closest(typed, names, (len(typed)+1)/2)
}

// Closest returns the first of names with the smallest edit distance to
// typed, provided that distance is at most maxDist; "" when none is that
// close. It does the work of comparing typed with every name but stops
// early on names that cannot beat the best so far (whose lengths differ
// by more), so a huge typed string costs little more than a short one.
func Closest(typed string, names []string, maxDist int) string {
	best, bound := "", maxDist+1 // a better name is less than bound away
	var rows []int
	for _, n := range names {
		if bound == 0 {
			break
		}
		if d, ok := distanceBelow(typed, n, bound, &rows); ok {
			best, bound = n, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, counted in
// bytes, as fio counts it for its "did you mean" and closest-match hints.
func EditDistance(a, b string) int {
	d, _ := distanceBelow(a, b, max(len(a), len(b))+1, nil)
	return d
}

// distanceBelow computes the edit distance between a and b when it is
// less than bound (ok true). It gives up as soon as the distance is known
// to reach bound: when the lengths differ by bound or more, or when a whole
// row of the table reaches bound (row minima never decrease). rows, when
// not nil, is scratch space reused between calls.
func distanceBelow(a, b string, bound int, rows *[]int) (int, bool) {
	if bound <= 0 || abs(len(a)-len(b)) >= bound {
		return 0, false
	}
	var buf []int
	if rows != nil {
		buf = *rows
	}
	if cap(buf) < 2*(len(b)+1) {
		buf = make([]int, 2*(len(b)+1))
		if rows != nil {
			*rows = buf
		}
	}
	prev, cur := buf[:len(b)+1], buf[len(b)+1:2*(len(b)+1)]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= bound {
			return 0, false
		}
		prev, cur = cur, prev
	}
	if d := prev[len(b)]; d < bound {
		return d, true
	}
	return 0, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// dashLike are characters that word processors put where "-" was meant.
var dashLike = map[rune]bool{
	'\u2010': true, // hyphen
	'\u2011': true, // non-breaking hyphen
	'\u2012': true, // figure dash
	'\u2013': true, // en dash
	'\u2014': true, // em dash
	'\u2015': true, // horizontal bar
	'\u2212': true, // minus sign
	'\uFE58': true, // small em dash
	'\uFE63': true, // small hyphen-minus
	'\uFF0D': true, // fullwidth hyphen-minus
}

// LooksLikeDashTypo recognises an argument that was meant as an option but
// starts with a typographic dash ("–group_reporting" with an en dash,
// "—bs=4k", "−−rw=read"). fio treats such an argument as a job file name;
// the caller may add a hint. suggest is the argument with its leading run
// of dashes (typographic or ASCII) replaced by "--".
func LooksLikeDashTypo(arg string) (suggest string, ok bool) {
	r, _ := utf8.DecodeRuneInString(arg)
	if !dashLike[r] {
		return "", false
	}
	rest := strings.TrimLeftFunc(arg, func(r rune) bool { return r == '-' || dashLike[r] })
	if rest == "" {
		return "", false
	}
	return "--" + rest, true
}
