// Package sessionfailure is the JetBrains AIR extension "Session failure"
// (contract `air-extensions.md`, section "Session failure"): warnings and
// errors as typed, durable transcript records at
// `_meta.jetbrains.air.sessionFailure`, for a client that declared the AIR
// capability `sessionFailure`. The package owns no I/O and decides no
// gate: the caller asks caps.Client.AIR.Has(caps.SessionFailure) and
// delivers each Record.
//
// Entry points:
//
//	New(sessionID) *State        one session's incident ids and revisions
//	(*State).Turn(kind, turnID, title, severity) Record
//	                            a live turn failure or api_retry warning,
//	                            id "<turnId>:error", revision rising
//	(*State).Session(kind, title, severity) Record
//	                            a session-scoped incident,
//	                            "<sessionId>:session-error:<epoch>:<n>"
//	(*State).Notice(title, details) Record
//	                            an advisory (the model fallback notice),
//	                            "<sessionId>:notice:<epoch>:<n>", an equal
//	                            consecutive notice keeping its id
//	(*State).Replayed(id, title) Record
//	                            a usage-limit failure replayed by
//	                            session/load
//	Record.Meta()               the `_meta` object carrying the record
//	ProviderKind(errorKind, usageLimit) Kind
//	                            Claude's assistant error marker → Kind
//	ResultKind(subtype)          a failed result's subtype → Kind
//	RetryTitle(frame)            an SDK api_retry's Kind and warning title
//	IsUsageLimit(model, text)    the SDK's synthetic usage-limit message
//	SafeTitle(text)              Claude's text without addresses, URLs,
//	                            tokens or private paths
//
// Categories, severities and actions follow the table of "Categories and
// actions"; ids and revisions follow "Identity and revisions"; titles
// follow "Title and details". "Recovery" is internal state the reference
// keeps without sending anything; this adapter has no behaviour that reads
// it, so it keeps none.
package sessionfailure
