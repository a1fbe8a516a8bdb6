// Package sessionconfig shapes a session's modes and config options (mode,
// model, effort, fast, ultracode), its `available_commands_update`, and
// what `session/set_mode` and `session/set_config_option` do: the control
// requests they send the CLI, the updates they publish and their result,
// as the reference adapter (claude-agent-acp 0.101.0) does for plain and
// Zed clients.
//
// Fast mode and ultracode are on/off options: `type: "boolean"` for a
// client that declared `session.configOptions.boolean`, as every ACP v2
// client does (Options.BooleanOptions), else an On/Off select; a
// set_config_option value of the wrong JSON type for the option is
// refused with -32602 and the config id and value as `data`.
//
// It owns no I/O. The caller decodes the CLI's `initialize` control
// response (ParseInit) and its `get_settings` response (ParseSettings),
// builds a Session with New, and answers session/new (and load, resume,
// fork) with Session.Result. A change is planned first: SetMode and
// SetConfigOption return a Plan whose Requests the caller sends the CLI,
// awaiting each; only when all succeed does it call Plan.Commit, which
// updates the session and returns the updates to publish (in order, before
// the response), the response result, and the control requests to send
// afterwards without waiting (Outcome.After).
//
// recommended_config_values.go is the AIR extension "Recommended config
// values", on when Options.Recommended (the client declared
// `recommendedValue`): the model and effort selectors lose their `default`
// rows and carry `_meta.jetbrains.air.recommendedValue`;
// Session.InitialEffortRequest is the apply_flag_settings the caller sends
// after get_settings so the SDK runs the shown effort; a model switch's
// Plan.Sync applies the new model's shown effort (best effort: on failure
// the caller calls Plan.CommitUnsynced, which keeps the new model and never
// shows the unapplied effort).
//
// A session opens on the preferred model (ANTHROPIC_MODEL, else the
// settings' model, which adapter/claudesettings reads), matched loosely
// as people write model names (ResolveModel); a stored session without
// one opens on the model its transcript's last answer ran on. It opens in
// the mode claudesettings.Settings.StartMode resolves; Opening is what
// that takes of the CLI before the settings are asked for.
//
// allowlist.go is the settings' restriction of the picker (Allowed): the
// `availableModels` allowlist, by the user's spellings or their
// `modelOverrides`, without what the managed `deniedModels` block. A
// current model the rows lack (a resume onto a model the allowlist leaves
// out) is listed as an entry of its own while it is current.
//
// The effort selector opens on the request's own effort, else the level
// the settings give the session's model (Options.SettingsEffort:
// `modelSettings.<model>.effortLevel`, else `effortLevel`); a model switch
// moves it to the new model's level, read from the files as they are at
// the switch, unless the client picked one the new model offers.
//
// A model switch the CLI makes by itself (a /model command, a refusal
// fallback) is planned as a client's switch; the adapter sends none of
// its set_model (adapter/modelfallback.go).
//
// Not modelled (the reference has them; no golden shows them): boolean
// config options beyond Fast mode and ultracode.
package sessionconfig
