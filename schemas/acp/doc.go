// Package acp loads the official ACP JSON Schema (the npm
// @agentclientprotocol/sdk files pinned in PIN: v1, and the ACP v2 draft in
// the sibling directory V2Dir) and validates messages by method, never against the root: the root's
// params are an anyOf that includes ExtRequest, which accepts anything.
//
//   - The method table comes from the x-method / x-side annotations of the
//     $defs (<X>Request, <X>Response, <X>Notification).
//   - A request or notification is checked against its params $def, a result
//     against the Response $def of the request it answers, an error against
//     Error.
//   - Discriminated unions (SessionUpdate on sessionUpdate, ContentBlock and
//     ToolCallContent on type, RequestPermissionOutcome on outcome, …) are
//     dispatched on their discriminator before the branch is validated, so a
//     failure names the branch that was meant, e.g.
//     SessionUpdate[sessionUpdate=tool_call].
//   - Load fails when the schema uses a 2019-09/2020-12 keyword that
//     gojsonschema would ignore silently (prefixItems, $dynamicRef,
//     dependentSchemas, unevaluatedItems, unevaluatedProperties other than
//     true, …).
//
// The schema is never committed. Locator finds its directory: the
// --acp-schema flag, else $AIRWIRE_ACP_SCHEMA_DIR, else the user cache
// (<cache>/airwire/acp-schema/<package>/v1, with v2 beside it), which it
// fills on first use with `npm pack` (as `make deps` does), checking the
// tarball and every file against PIN, which is built into the binary (Pinned). It says on its Log
// what it fetches; without npm it fails with ErrNoNPM and says what to do.
package acp
