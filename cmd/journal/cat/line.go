package cat

import (
	"encoding/json"

	"github.com/airwire/airwire/internal/journal"
)

func journalLine(e *journal.Entry) []byte {
	b, _ := json.Marshal(e)
	return append(b, '\n')
}
