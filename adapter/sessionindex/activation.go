package sessionindex

import "github.com/airwire/airwire/adapter/caps"

// Capability names the agent advertises together with sessionIndex
// (contract: "Session index", "Activation").
const (
	SessionArchive       = "sessionArchive"
	SessionRename        = "sessionRename"
	SessionListSubscribe = "sessionListSubscribe"
)

// Methods of the session index (contract: "Rename", "Archive", "List
// subscription").
const (
	MethodRename      = "_session/rename"
	MethodArchive     = "_session/archive"
	MethodUnarchive   = "_session/unarchive"
	MethodSubscribe   = "_session/list/subscribe"
	MethodUnsubscribe = "_session/list/unsubscribe"
	MethodChanges     = "_session/list/changes"
)

// Enabled reports whether the client gets the session index: an AIR client
// that declared sessionIndex. Declaring sessionArchive, sessionRename or
// sessionListSubscribe without it enables nothing.
func Enabled(c caps.Client) bool { return c.AIR.Client && c.AIR.Has(caps.SessionIndex) }
