#!/usr/bin/env bash
# The non-interference suite of the page tools (src/tools/): two pages that differ only in
# secrets get the same table of hostile calls through the devserver, and every answer must be
# byte-identical between them (run.mjs). Builds the SDK with wasm-pack (--target web) into
# tests/non-interference/.sdk/, installs playwright-core with `npm ci` when node_modules is
# missing, starts the devserver on a free port (serving www/ and the SDK) and stops it.
# Closing line: "N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "non-interference: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

cd "$root"
# The JS classes are the js-api feature's (a Rust app's build has none).
wasm-pack --quiet build --dev --target web --no-pack --out-dir "$here/.sdk" --out-name client_tools . \
  --features js-api \
  || fail "wasm-pack build failed"
cargo build --quiet -p devserver || fail "the devserver does not build"
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')

cd "$here"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund --loglevel=error || fail "npm ci failed"
fi
node run.mjs --devserver "$target_dir/debug/devserver" --sdk "$here/.sdk" "$@"
