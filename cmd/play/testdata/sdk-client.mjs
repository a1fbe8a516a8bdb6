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
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const PROMPTS = ["please do the thing", "and now the next thing, thanks", "one more, the last one"];

function parseArgs(argv) {
  const o = { clients: process.env.AIRWIRE_ACP_CLIENTS ?? "", cwd: process.cwd(), mode: "keep", prompts: 1, cancelAfter: 2000, timeout: 60000 };
  const dash = argv.indexOf("--");
  if (dash < 0 || dash === argv.length - 1) usage("no agent command after --");
  o.agent = argv.slice(dash + 1);
  const flags = argv.slice(0, dash);
  for (let i = 0; i < flags.length; i += 2) {
    const [k, v] = [flags[i], flags[i + 1]];
    if (v === undefined) usage(`${k} needs a value`);
    switch (k) {
      case "--clients": o.clients = v; break;
      case "--cwd": o.cwd = path.resolve(v); break;
      case "--mode":
        if (!["keep", "unoffered", "ignore"].includes(v)) usage(`--mode: want keep, unoffered or ignore, got ${v}`);
        o.mode = v; break;
      case "--prompts": o.prompts = Math.max(1, Math.min(PROMPTS.length, Number(v))); break;
      case "--cancel-after": o.cancelAfter = Number(v); break;
      case "--timeout": o.timeout = Number(v); break;
      default: usage(`unknown flag ${k}`);
    }
  }
  if (!o.clients) usage("--clients or AIRWIRE_ACP_CLIENTS: where make deps installed @agentclientprotocol/sdk");
  return o;
}

function usage(msg) {
  process.stderr.write(`sdk-client: ${msg}\nusage: node sdk-client.mjs [--clients DIR] --cwd DIR [--mode keep|unoffered|ignore] [--prompts N] -- AGENT [ARGS...]\n`);
  process.exit(2);
}

const log = (line) => process.stderr.write(`sdk-client: ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// readableOf turns the agent's stdout into the web stream the SDK reads. It
// does what Readable.toWeb does, except that when the SDK cancels it (the
// connection closing) it keeps draining the pipe instead of closing it: the
// agent may still be writing, and a Go program writing to a closed stdout
// dies of SIGPIPE before it can write its report.
function readableOf(node) {
  let done = false;
  return new ReadableStream({
    start(ctrl) {
      node.on("data", (chunk) => { if (!done) ctrl.enqueue(new Uint8Array(chunk)); });
      node.on("end", () => { if (!done) { done = true; ctrl.close(); } });
      node.on("error", (err) => { if (!done) { done = true; ctrl.error(err); } });
    },
    cancel() { done = true; node.resume(); },
  });
}

function firstAllow(options) {
  return options.find((o) => o.kind === "allow_once" || o.kind === "allow_always") ?? options[0];
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const require = createRequire(path.join(path.resolve(o.clients), "package.json"));
  const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);

  const child = spawn(o.agent[0], o.agent.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => {
    child.on("error", (err) => { log(`cannot start the agent: ${err.message}`); resolve(127); });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
  });
  child.stdin.on("error", () => {}); // the agent may exit before reading everything

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

  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), readableOf(child.stdout));
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
  if (!child.stdin.destroyed) child.stdin.end();
  log("stdin closed; waiting for the agent");
  const code = await Promise.race([exited, sleep(o.timeout).then(() => { log("the agent did not exit; killing it"); child.kill("SIGKILL"); return exited; })]);
  log(`agent exited ${code}`);
  process.exit(code === 0 && failed ? 4 : code);
}

main().catch((err) => { log(`failed: ${err?.stack ?? err}`); process.exit(4); });
