package jobspec

import "fmt"

// This file holds the setters of choice options. A choice row lists its
// words in fio's order (Choices); its setter gives one value per word, in
// the same order, so the words live in the row alone.

// choiceArity records, for each choice setter built by setChoice or
// choiceValues, how many values it gives; init checks it against the
// row's Choices.
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

// choiceIndex returns the index in the Choices of the row called name of
// the word value selects, with fio's matching (matchChoice), and the
// word; errChoice if it selects none. A word the row marks Unhonoured
// also returns an *UnsupportedError with the row's reason.
func choiceIndex(name, value string) (int, string, error) {
	o := row(name)
	for i, c := range o.Choices {
		if !matchChoice(value, c.Word) {
			continue
		}
		if why, ok := o.Unhonoured[c.Word]; ok {
			return i, c.Word, &UnsupportedError{Option: o.Name, Value: value, Reason: why}
		}
		return i, c.Word, nil
	}
	return 0, "", errChoice
}

// choiceValues declares that the setter of the choice option name maps
// its row's words, in order, to values, and returns them.
func choiceValues[T any](name string, values ...T) []T {
	choiceArity[name] = len(values)
	return values
}

// setChoice returns the setter of the choice option name: the i-th word of
// its row's Choices stores values[i]. A word the row marks Unhonoured is
// stored too (the job's later checks see what was asked for) and makes
// the setter return gofio's error for it.
func setChoice[T any](name string, field func(*Job) *T, values ...T) func(*Job, string) error {
	values = choiceValues(name, values...)
	return func(j *Job, value string) error {
		i, _, err := choiceIndex(name, value)
		if err == errChoice {
			return err
		}
		*field(j) = values[i]
		return err
	}
}

// acceptChoice returns the setter of a choice option that stores nothing:
// gofio honours only the words the row does not mark Unhonoured, and does
// what they ask anyway.
func acceptChoice(name string) func(*Job, string) error {
	return func(j *Job, value string) error {
		_, _, err := choiceIndex(name, value)
		return err
	}
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
