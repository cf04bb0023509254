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
	limit := (len(typed) + 1) / 2
	best, bestDist := "", limit+1
	for _, n := range names {
		if d := EditDistance(typed, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, counted in
// bytes, as fio counts it for its "did you mean" and closest-match hints.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
