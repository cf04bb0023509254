package jobspec

import (
	"fmt"
	"strings"
)

// This file holds the typed setters of rows (storers). The reader reads a
// value once, with the row's kind, bounds and choices and fio's messages;
// the row's storer stores what it read. A choice row lists its words in
// fio's order (Choices) and its storer gives one value per word, in the
// same order, so the words live in the row alone.

// choiceArity records, for each choice setter built with choiceValues,
// how many values it gives; init checks it against the row's Choices.
var choiceArity = map[string]int{}

// row returns the general or profile option row called name.
func row(name string) *Option {
	if o, ok := byName[name]; ok {
		return o
	}
	for i := range profileOptions {
		if profileOptions[i].Name == name {
			return &profileOptions[i]
		}
	}
	panic("jobspec: no option row " + name)
}

// A storer is a row's typed setter: it stores p, what the reader read
// from value for the row o (value is for messages and for the words'
// parameters).
type storer interface {
	store(o *Option, j *Job, value string, p parsed) error
}

// bindStore makes Set of a row with a typed setter: the value is read
// with the row's kind and checks (fio's), then stored. A choice setter
// must give one value per word of the row.
func (o *Option) bindStore() {
	if o.store == nil {
		return
	}
	if o.Set != nil {
		panic("jobspec: option " + o.Name + " has both Set and store")
	}
	if c, ok := o.store.(interface{ arity() int }); ok && c.arity() != len(o.Choices) {
		panic(fmt.Sprintf("jobspec: the setter of %s gives %d values for its row's %d words", o.Name, c.arity(), len(o.Choices)))
	}
	o.Set = func(j *Job, value string) error {
		r := reader{job: j}
		if !r.read(o, value, true) {
			return r.refusal(o, value)
		}
		return o.store.store(o, j, value, r.got)
	}
}

// refusal is the error of a value the reader refused: fio's messages and
// "failed parsing", or errChoice for a word a choice row does not list.
func (r *reader) refusal(o *Option, value string) error {
	var lines []string
	for _, n := range r.notes {
		if !n.stdout {
			lines = append(lines, n.text)
		}
	}
	if len(lines) == 0 && o.Kind == KindChoice {
		return errChoice
	}
	return &ValueError{Option: o.Name, Value: value, Detail: strings.Join(lines, "\n")}
}

// choiceStore is the typed setter of a choice row: the i-th word of the
// row's Choices stores values[i].
type choiceStore[T any] struct {
	field  func(*Job) *T
	values []T
}

// storeChoice returns the typed setter of a choice row storing values,
// one per word of the row, in the row's order, in field.
func storeChoice[T any](field func(*Job) *T, values ...T) storer {
	return choiceStore[T]{field, values}
}

func (c choiceStore[T]) arity() int { return len(c.values) }

func (c choiceStore[T]) store(o *Option, j *Job, value string, p parsed) error {
	*c.field(j) = c.values[p.choice]
	return nil
}

// choiceFunc is the typed setter of a choice row whose values say more
// than their word (rw=randread:8, mem=mmap:PATH): it gets the index of
// the word in the row's Choices, the word, and the value as written.
type choiceFunc func(j *Job, i int, word, value string) error

func (f choiceFunc) store(o *Option, j *Job, value string, p parsed) error {
	return f(j, p.choice, o.Choices[p.choice].Word, value)
}

// choiceValues declares that the setter of the choice option name maps
// its row's words, in order, to values, and returns them.
func choiceValues[T any](name string, values ...T) []T {
	choiceArity[name] = len(values)
	return values
}

// checkChoiceArity panics if a choice setter gives a different number of
// values than its row has words.
func checkChoiceArity() {
	for name, n := range choiceArity {
		if w := len(row(name).Choices); w != n {
			panic(fmt.Sprintf("jobspec: the setter of %s gives %d values for its row's %d words", name, n, w))
		}
	}
}
