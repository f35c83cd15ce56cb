#!/usr/bin/env bash
# Installs the package as a user would, on the Node first on PATH: pack, install the tarball into a fresh
# project (npm must print nothing on stderr: no EBADENGINE, no deprecation), start `npx verified serve`, and
# let consumer.mjs answer a create on the local model through the client and import the library by name.
# Needs a built dist/ (npm test builds it). Usage: test/install/install-check.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
server_pid=""
service_pid=""
cleanup() {
  if [ -n "${service_pid:-}" ]; then kill "$service_pid" 2>/dev/null || true; fi
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)
echo "== install check on node $(node --version), npm $(npm --version)"

# A newcomer's npm: no user config (this machine's ~/.npmrc has settings npm itself warns about).
printf '' >"$work/npmrc"
export npm_config_userconfig="$work/npmrc" npm_config_update_notifier=false

tarball="$(cd "$root" && npm pack --silent --ignore-scripts --pack-destination "$work" | tail -n 1)"
mkdir "$work/project"
cd "$work/project"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' >package.json
if ! npm install --no-audit --no-fund "$work/$tarball" 2>"$work/install.err"; then
  cat "$work/install.err" >&2
  echo "install check: npm install failed" >&2
  exit 1
fi
if [ -s "$work/install.err" ]; then
  echo "install check: npm printed on stderr while installing (expected nothing):" >&2
  cat "$work/install.err" >&2
  exit 1
fi

port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
VERIFIED_GATEWAY_URL="" VERIFIED_PORT="$port" npx --no-install verified serve >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
# Copied into the project: run from test/install, its imports would resolve to this repository itself.
cp "$here/consumer.mjs" .
if ! node consumer.mjs "http://127.0.0.1:$port"; then
  echo "--- serve stdout" >&2; cat "$work/serve.out" >&2
  echo "--- serve stderr" >&2; cat "$work/serve.err" >&2
  exit 1
fi
# npx does not forward SIGTERM (one reason the Dockerfile starts node itself), so signal the service's own
# process, named by the pid in its start log line; npx then exits with the service's exit code.
service_pid="$(sed -n 's/.*"pid":\([0-9]*\).*"msg":"verified is serving".*/\1/p' "$work/serve.out" | head -n 1)"
kill -TERM "$service_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
service_pid=""
if [ "$status" -ne 0 ]; then
  echo "install check: verified serve exited $status after SIGTERM (expected 0)" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
echo "== install check passed on node $(node --version) in $(($(date +%s) - started)) s"
