#!/usr/bin/env bash
# The WebSocket frame test never drops a call (issue 30): every frame the bridge's suites feed
# (core/tests/ws_cartesia, ws_elevenlabs, ws_openai, ws_unreadable, ws_markers, recorded as they
# are fed: CLIENT_TOOLS_WS_FRAMES, which also checks the markers in Rust for each), through the
# package's WsTools in headless Chromium with the frame test (receive, both builds; attach on a
# real socket) and through the glue's own receive, which reads every frame; the answers must be
# the same (check.mjs). Uses pkg/ when SKIP_BUILD_PKG=1 (else builds it), installs
# playwright-core with `npm ci` when node_modules is missing, serves the page and the sockets
# from the devserver on a free port. Closing line: "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "ws-frames: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

cd "$root"
if [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/lite/client_tools_bg.wasm ]; then
  scripts/build-pkg >/dev/null || fail "scripts/build-pkg failed"
fi
frames=$(mktemp)
trap 'rm -f "$frames"' EXIT
CLIENT_TOOLS_WS_FRAMES="$frames" cargo test --quiet -p client-tools-core --test ws_cartesia \
  --test ws_elevenlabs --test ws_openai --test ws_unreadable --test ws_markers >/dev/null \
  || fail "the bridge's suites failed (cargo test -p client-tools-core --test 'ws_*')"
cargo build --quiet -p devserver || fail "the devserver does not build"
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')

cd "$here"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund --loglevel=error || fail "npm ci failed"
fi
node check.mjs --devserver "$target_dir/debug/devserver" --pkg "$root/pkg" --frames "$frames"
