package proxy

import (
	"errors"
	"os"
)

// replaceFd declines on Windows, so endOutput closes the stream: nothing
// writes to a standard handle by its number there. Writes through the
// closed *os.File fail with os.ErrClosed, the runtime writes its own
// output to stderr's handle only, and a child gets just the handles os/exec
// passes it.
func replaceFd(_, _ *os.File) error { return errors.ErrUnsupported }
