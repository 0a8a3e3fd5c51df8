#!/usr/bin/env bash
# exposeToWebMCP on the MCP-B polyfill with real MCP clients (issue 42; run.mjs says what it
# checks): installs this suite's packages with `npm ci` (package-lock.json pins @mcp-b/global,
# @mcp-b/transports, both MCP client majors, esbuild and playwright-core), bundles the page's
# MCP side (mcp-entry.js -> www/mcp.js), and runs run.mjs against pkg/ (scripts/build-pkg
# unless SKIP_BUILD_PKG=1 and pkg/ exists) and the devserver. Closing line: "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"
fail() { echo "webmcp-b: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
cd "$root"
if [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/package.json ]; then
  scripts/build-pkg >/dev/null || fail "scripts/build-pkg failed"
fi
cargo build --quiet -p devserver || fail "the devserver does not build"
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
cd "$here"
"$root/scripts/npm-ci-once" . || fail "npm ci failed"
node_modules/.bin/esbuild mcp-entry.js --bundle --format=esm --platform=browser --log-level=warning \
  --outfile=www/mcp.js || fail "bundling the MCP side failed"
node run.mjs --devserver "$target_dir/debug/devserver" --pkg "$root/pkg"
