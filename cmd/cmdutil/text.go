package cmdutil

import "fmt"

// Plural is n followed by the singular noun when n is 1 and the plural
// otherwise: Plural(1, "run", "runs") is "1 run".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// mismatchError is a failed check whose message already says what failed.
type mismatchError struct{ msg string }

func (e *mismatchError) Error() string        { return e.msg }
func (e *mismatchError) Is(target error) bool { return target == ErrMismatch }

// Mismatchf is a failed check (errors.Is(err, ErrMismatch) holds) whose
// text is the message alone, without ErrMismatch's own words.
func Mismatchf(format string, args ...any) error {
	return &mismatchError{fmt.Sprintf(format, args...)}
}
