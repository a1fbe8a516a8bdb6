// Prints the session/update objects that the reference adapter's replay
// renders for stored messages: node reference.mjs <reference dist dir>,
// with {"caps":…,"cwd":…,"messages":[{type,uuid,message}]} on stdin.
// Used by `go test -run TestReplayMatchesReference -args -reference=<dir>`
// to refresh the expected files; go test itself never runs it.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dist = path.resolve(process.argv[2]);
const { toAcpNotifications, messageIdForGrouping } = await import(pathToFileURL(path.join(dist, "acp-agent.js")).href);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const cache = {};
const taskState = new Map();
const logger = { log() {}, error() {}, warn() {} };
const client = { sessionUpdate: async () => {} };
for (const m of input.messages) {
  const updates = toAcpNotifications(m.message.content, m.message.role, "s", cache, client, logger, {
    registerHooks: false, replay: true, clientCapabilities: input.caps, cwd: input.cwd, taskState,
    messageId: messageIdForGrouping(m), parentToolUseId: null,
  });
  for (const n of updates) console.log(JSON.stringify(n.update));
}
