#!/usr/bin/env bash
# The non-interference suite of the page tools (src/tools/): two pages that differ only in
# secrets get the same table of hostile calls through the devserver, and every answer must be
# byte-identical between them (run.mjs). Builds the SDK with wasm-pack (--target web) into
# tests/non-interference/.sdk/, installs playwright-core with `npm ci` when node_modules is
# missing, starts the devserver on a free port (serving www/ and the SDK) and stops it.
# NI_BROWSERS picks the engines, one after the other (default: chromium): chromium through
# playwright-core, firefox and webkit through WebDriver (issue 41; WebKitWebDriver opens a
# window, so in a virtual X display). NI_SDK_DIR builds (and serves) the SDK there instead of
# .sdk/ (scripts/test's background runs, beside the foreground's); SKIP_BUILD=1 uses the SDK and
# devserver already built.
# Closing line of each engine: "ENGINE: N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sdk=${NI_SDK_DIR:-$here/.sdk}
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "non-interference: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

cd "$root"
if [ -z "${SKIP_BUILD:-}" ]; then
  # The JS classes are the js-api feature's (a Rust app's build has none).
  wasm-pack --quiet build --dev --target web --no-pack --out-dir "$sdk" --out-name client_tools . \
    --features js-api \
    || fail "wasm-pack build failed"
  cargo build --quiet -p devserver || fail "the devserver does not build"
fi
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')

cd "$here"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund --loglevel=error || fail "npm ci failed"
fi
rc=0
for browser in ${NI_BROWSERS:-chromium}; do
  run=(node run.mjs --devserver "$target_dir/debug/devserver" --sdk "$sdk" --browser "$browser" "$@")
  [ "$browser" = webkit ] && run=(xvfb-run -a "${run[@]}")
  "${run[@]}" || rc=1
done
exit $rc
