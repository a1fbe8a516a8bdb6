// agent-process.mjs: what the SDK test clients (sdk-client.mjs, ACP v1, and
// sdk-v2-client.mjs, ACP v2) share: their command line, the agent process
// they launch and end, the agent's stdout as the web stream the SDK reads,
// and the SDK package they load.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";

// clientLog is the logger of client name: one "NAME: line" per line on
// stderr.
export function clientLog(name) {
  return (line) => process.stderr.write(`${name}: ${line}\n`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// parseArgs reads `[FLAGS] -- AGENT [ARGS...]`. Every client takes
// --clients, --cwd and --timeout; flags maps each other flag it takes to a
// function (options, value) that sets it. usage is the client's usage line.
export function parseArgs(name, argv, usage, flags = {}, defaults = {}) {
  const o = { clients: process.env.AIRWIRE_ACP_CLIENTS ?? "", cwd: process.cwd(), timeout: 60000, ...defaults };
  const fail = (msg) => {
    process.stderr.write(`${name}: ${msg}\nusage: ${usage}\n`);
    process.exit(2);
  };
  const dash = argv.indexOf("--");
  if (dash < 0 || dash === argv.length - 1) fail("no agent command after --");
  o.agent = argv.slice(dash + 1);
  const given = argv.slice(0, dash);
  for (let i = 0; i < given.length; i += 2) {
    const [k, v] = [given[i], given[i + 1]];
    if (v === undefined) fail(`${k} needs a value`);
    switch (k) {
      case "--clients": o.clients = v; break;
      case "--cwd": o.cwd = path.resolve(v); break;
      case "--timeout": o.timeout = Number(v); break;
      default: {
        if (!flags[k]) fail(`unknown flag ${k}`);
        const problem = flags[k](o, v);
        if (problem) fail(problem);
      }
    }
  }
  if (!o.clients) fail("--clients or AIRWIRE_ACP_CLIENTS: where make deps installed @agentclientprotocol/sdk");
  return o;
}

// importSDK imports module (an export of @agentclientprotocol/sdk) from the
// npm prefix clients.
export async function importSDK(clients, module) {
  const require = createRequire(path.join(path.resolve(clients), "package.json"));
  return import(pathToFileURL(require.resolve(module)).href);
}

// startAgent launches argv with stdio pipes (stderr inherited). exited
// resolves to its exit code: 127 when it cannot start, 128+15 for a signal.
export function startAgent(argv, log) {
  const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => {
    child.on("error", (err) => { log(`cannot start the agent: ${err.message}`); resolve(127); });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
  });
  child.stdin.on("error", () => {}); // the agent may exit before reading everything
  return { child, exited };
}

// agentStream is the SDK stream over the agent's stdio: acp.ndJsonStream
// writing its stdin and reading its stdout.
export function agentStream(acp, child) {
  return acp.ndJsonStream(Writable.toWeb(child.stdin), readableOf(child.stdout));
}

// endAgent closes the agent's stdin, waits up to timeout ms for it to exit
// (then kills it) and exits with its code: 4 when it exited 0 but the
// client failed.
export async function endAgent({ child, exited }, timeout, failed, log) {
  if (!child.stdin.destroyed) child.stdin.end();
  log("stdin closed; waiting for the agent");
  const code = await Promise.race([exited, sleep(timeout).then(() => { log("the agent did not exit; killing it"); child.kill("SIGKILL"); return exited; })]);
  log(`agent exited ${code}`);
  process.exit(code === 0 && failed ? 4 : code);
}

// firstAllow is the first allow option offered, else the first option.
export function firstAllow(options) {
  return options.find((o) => o.kind === "allow_once" || o.kind === "allow_always") ?? options[0];
}

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
