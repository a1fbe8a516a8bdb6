// sdk-client.mjs: an ACP client built on the official TypeScript SDK
// (@agentclientprotocol/sdk, its client side), as a client team would write
// one, used to drive `airwire play` in cmd/play's tests.
//
//   node sdk-client.mjs [--clients DIR] --cwd DIR [--mode keep|unoffered|ignore]
//        [--prompts N] [--cancel-after MS] [--timeout MS] -- AGENT [ARGS...]
//
// It launches AGENT with stdio pipes, initializes as a plain client (fs read
// and write, no terminal), opens a session in --cwd and sends --prompts
// prompts of its own text, one after another. Permission requests are
// answered by --mode:
//   keep       the first allow option offered (else the first option)
//   unoffered  optionId "not-offered-by-anyone", which no agent offered
//   ignore     never; --cancel-after ms after the first one it sends
//              session/cancel and ends without answering it
// fs/read_text_file and fs/write_text_file are served from disk. Each
// session update's kind and each prompt's stop reason go to stderr as
// "sdk-client: update KIND" and "sdk-client: stop REASON". At the end it
// closes the agent's stdin, waits for the agent to exit and exits with the
// agent's exit code (4 when the agent exited 0 but the client failed).
//
// --clients (default $AIRWIRE_ACP_CLIENTS) is the npm prefix `make deps`
// installs the SDK into.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { agentStream, clientLog, endAgent, firstAllow, importSDK, parseArgs, sleep, startAgent } from "./agent-process.mjs";

const NAME = "sdk-client";
const PROMPTS = ["please do the thing", "and now the next thing, thanks", "one more, the last one"];
const USAGE = "node sdk-client.mjs [--clients DIR] --cwd DIR [--mode keep|unoffered|ignore] [--prompts N] [--cancel-after MS] [--timeout MS] -- AGENT [ARGS...]";
const FLAGS = {
  "--mode": (o, v) => {
    if (!["keep", "unoffered", "ignore"].includes(v)) return `--mode: want keep, unoffered or ignore, got ${v}`;
    o.mode = v;
  },
  "--prompts": (o, v) => { o.prompts = Math.max(1, Math.min(PROMPTS.length, Number(v))); },
  "--cancel-after": (o, v) => { o.cancelAfter = Number(v); },
};

const log = clientLog(NAME);

async function main() {
  const o = parseArgs(NAME, process.argv.slice(2), USAGE, FLAGS, { mode: "keep", prompts: 1, cancelAfter: 2000 });
  const acp = await importSDK(o.clients, "@agentclientprotocol/sdk");
  const agent = startAgent(o.agent, log);

  let sawPermission;
  const permissionSeen = new Promise((r) => { sawPermission = r; });
  const app = acp.client({ name: "airwire-test-sdk-client" })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      sawPermission(params);
      const ids = params.options.map((x) => x.optionId).join(", ");
      if (o.mode === "ignore") {
        log(`permission: ignored (offered ${ids})`);
        return new Promise(() => {});
      }
      const optionId = o.mode === "unoffered" ? "not-offered-by-anyone" : firstAllow(params.options).optionId;
      log(`permission: ${optionId} (offered ${ids})`);
      return { outcome: { outcome: "selected", optionId } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      let content = await readFile(params.path, "utf8");
      if (params.line != null || params.limit != null) {
        const lines = content.split("\n");
        const start = Math.max(0, (params.line ?? 1) - 1);
        content = lines.slice(start, params.limit != null ? start + params.limit : undefined).join("\n");
      }
      log(`fs read ${params.path}`);
      return { content };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      await mkdir(path.dirname(params.path), { recursive: true });
      await writeFile(params.path, params.content);
      log(`fs write ${params.path}`);
      return {};
    })
    .onNotification(acp.methods.client.session.update, async ({ params }) => {
      log(`update ${params.update.sessionUpdate}`);
    });

  const stream = agentStream(acp, agent.child);
  let failed = false;
  try {
    await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        clientInfo: { name: "airwire-test-sdk-client", version: "1.0.0" },
      });
      log(`initialized: protocol ${init.protocolVersion}`);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: o.cwd, mcpServers: [] });
      log(`session ${sessionId}`);
      for (let i = 0; i < o.prompts; i++) {
        const prompt = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: PROMPTS[i] }] });
        if (o.mode === "ignore") {
          prompt.catch(() => {}); // it may never end: the permission stays unanswered
          const seen = await Promise.race([permissionSeen.then(() => true), prompt.then(() => false, () => false), sleep(o.timeout).then(() => false)]);
          if (!seen) {
            log("no permission request came to ignore");
            failed = true;
            return;
          }
          await sleep(o.cancelAfter);
          log("cancel");
          await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
          const res = await Promise.race([prompt.then((r) => r, () => undefined), sleep(o.cancelAfter)]);
          log(res ? `stop ${res.stopReason}` : "prompt still open; ending");
          return;
        }
        const res = await Promise.race([prompt, sleep(o.timeout).then(() => { throw new Error(`prompt ${i + 1}: no answer in ${o.timeout} ms`); })]);
        log(`stop ${res.stopReason}`);
      }
    });
  } catch (err) {
    failed = true;
    log(`failed: ${err?.stack ?? err}`);
  }
  await endAgent(agent, o.timeout, failed, log);
}

main().catch((err) => { log(`failed: ${err?.stack ?? err}`); process.exit(4); });
