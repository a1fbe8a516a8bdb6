// sdk-v2-client.mjs: an ACP v2 client built on the official TypeScript SDK's
// experimental v2 client (@agentclientprotocol/sdk/experimental/v2), as a
// client team would write one, used by cmd/play's tests to measure an agent
// that serves the ACP v2 draft.
//
//   node sdk-v2-client.mjs [--clients DIR] --cwd DIR [--timeout MS] -- AGENT [ARGS...]
//
// It launches AGENT with stdio pipes and plays one session:
//   1. initialize asking protocolVersion 2 (no capabilities: v2 has no
//      client file system or terminal); an answer of another version fails;
//   2. session/new in --cwd, through the SDK's session builder;
//   3. a text turn ("Say hello.");
//   4. a turn whose tool call asks permission ("Delete the temp files."),
//      answered with the first allow option offered;
//   5. a turn ("Keep working on it.") cancelled with session/cancel once its
//      first agent_message_chunk arrived.
// A v2 prompt is answered when the agent takes it in; the client waits for
// each turn's end by the session's idle state_update, counted only after a
// running state_update of that turn. Each update kind goes to stderr as
// "sdk-v2-client: update KIND", each turn's end as "sdk-v2-client: stop
// REASON". At the end stdout gets one JSON line:
//   {"protocolVersion":N,"sessionId":S,"stops":[...],"permissions":[...],
//    "updates":{KIND:COUNT},"error":MSG}
// (error only when the client failed). It then closes the agent's stdin,
// waits for the agent to exit and exits with the agent's exit code (4 when
// the agent exited 0 but the client failed).
//
// --clients (default $AIRWIRE_ACP_CLIENTS) is the npm prefix `make deps`
// installs the SDK into.
import { agentStream, clientLog, endAgent, firstAllow, importSDK, parseArgs, startAgent } from "./agent-process.mjs";

const NAME = "airwire-test-sdk-v2-client";
const USAGE = "node sdk-v2-client.mjs [--clients DIR] --cwd DIR [--timeout MS] -- AGENT [ARGS...]";

const log = clientLog("sdk-v2-client");

// within fails with what after ms.
function within(p, ms, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

// turn sends text on session and reads its updates until the idle
// state_update that ends it: an idle counts only after a running
// state_update read after the prompt was sent (an idle already queued is a
// snapshot of the state before). onUpdate sees every session update.
async function turn(session, text, timeout, onUpdate) {
  const answered = session.prompt(text);
  answered.catch(() => {});
  let running = false;
  for (;;) {
    const m = await within(session.nextUpdate(), timeout, `turn "${text}"`);
    const kind = m.update.sessionUpdate;
    log(m.kind === "stop" ? `update ${kind} idle` : `update ${kind}${kind === "state_update" ? " " + m.update.state : ""}`);
    await onUpdate(m);
    if (m.kind === "session_update" && kind === "state_update" && m.update.state === "running") running = true;
    if (m.kind === "stop" && running) {
      const res = await within(answered, timeout, `the answer to "${text}"`);
      if (!res || typeof res.messageId !== "string") throw new Error(`session/prompt answered ${JSON.stringify(res)}, want a messageId`);
      log(`stop ${m.stopReason}`);
      return m.stopReason;
    }
  }
}

async function play(acp, ctx, o, out) {
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    info: { name: NAME, version: "1.0.0" },
    capabilities: {},
  });
  out.protocolVersion = init.protocolVersion;
  log(`initialized: protocol ${init.protocolVersion}`);
  if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
    throw new Error(`the agent answered initialize with protocolVersion ${init.protocolVersion}, not ${acp.PROTOCOL_VERSION}: it does not serve ACP v2`);
  }
  await ctx.buildSession(o.cwd).withSession(async (session) => {
    out.sessionId = session.sessionId;
    log(`session ${session.sessionId}`);
    const count = async (m) => { out.updates[m.update.sessionUpdate] = (out.updates[m.update.sessionUpdate] ?? 0) + 1; };
    out.stops.push(await turn(session, "Say hello.", o.timeout, count));
    out.stops.push(await turn(session, "Delete the temp files.", o.timeout, count));
    let cancelled = false;
    out.stops.push(await turn(session, "Keep working on it.", o.timeout, async (m) => {
      await count(m);
      if (!cancelled && m.kind === "session_update" && m.update.sessionUpdate === "agent_message_chunk") {
        cancelled = true;
        log("cancel");
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
      }
    }));
    if (!cancelled) throw new Error("the third turn ended before it streamed a chunk to cancel it at");
  });
}

async function main() {
  const o = parseArgs("sdk-v2-client", process.argv.slice(2), USAGE);
  const acp = await importSDK(o.clients, "@agentclientprotocol/sdk/experimental/v2");
  const agent = startAgent(o.agent, log);

  const out = { protocolVersion: null, sessionId: null, stops: [], permissions: [], updates: {} };
  const app = acp.client({ name: NAME })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      const optionId = firstAllow(params.options).optionId;
      out.permissions.push({ title: params.title, optionId, offered: params.options.map((x) => x.optionId) });
      log(`permission: ${optionId} (offered ${params.options.map((x) => x.optionId).join(", ")})`);
      return { outcome: { outcome: "selected", optionId } };
    });

  const stream = agentStream(acp, agent.child);
  try {
    await app.connectWith(stream, (ctx) => play(acp, ctx, o, out));
  } catch (err) {
    out.error = String(err?.message ?? err);
    log(`failed: ${err?.stack ?? err}`);
  }
  process.stdout.write(JSON.stringify(out) + "\n");
  await endAgent(agent, o.timeout, out.error !== undefined, log);
}

main().catch((err) => { log(`failed: ${err?.stack ?? err}`); process.exit(4); });
