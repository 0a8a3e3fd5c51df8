#!/usr/bin/env bash
# End-to-end tests of the page tools (src/tools/) on three fixture apps built with Vite: a React 19
# form with controlled inputs, a Vue 3 form with v-model under vue-router, and a plain HTML form.
# Builds the crate with wasm-pack (--target web) into tests/forms/.sdk/, installs npm deps when
# node_modules is missing, builds the apps, and drives them in headless Chromium, Firefox and
# WebKit (run.mjs; FORMS_BROWSERS below). Closing line of each: "BROWSER: N passed, M failed";
# exits non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "forms: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

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
rm -rf dist
npx vite build --logLevel warn || fail "vite build failed"
# Each engine in turn (issue 41): Chromium through playwright-core, Firefox and WebKit through
# WebDriver (geckodriver; WebKitWebDriver opens a window, so in a virtual X display).
# FORMS_BROWSERS picks them (default: all three).
rc=0
for browser in ${FORMS_BROWSERS:-chromium firefox webkit}; do
  run=(node run.mjs --dist dist --devserver "$target_dir/debug/devserver" --browser "$browser" "$@")
  [ "$browser" = webkit ] && run=(xvfb-run -a "${run[@]}")
  "${run[@]}" || rc=1
done
exit $rc
