#!/usr/bin/env bash
# The npm package as a user gets it: packs pkg/ with `npm pack`, installs the tarball into this
# minimal Vite app (deps from its package-lock.json), type-checks it with tsc against the
# package's declarations, runs `vite build`, serves dist/ on one port
# and the devserver on another, and checks in headless Chromium that tool calls are answered.
# Closing line: "N passed, M failed". SKIP_BUILD_PKG=1 reuses an existing pkg/; DEVSERVER=BIN
# uses a devserver binary already built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "vite-consumer: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

if [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/package.json ]; then
  scripts/build-pkg || fail "scripts/build-pkg failed"
fi
devserver=${DEVSERVER:-}
if [ -z "$devserver" ]; then
  cargo build --quiet -p devserver || fail "the devserver does not build"
  target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
  devserver="$target_dir/debug/devserver"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd pkg && npm pack --silent --pack-destination "$tmp") || fail "npm pack failed"
echo "vite-consumer: packed $tarball ($(stat -c %s "$tmp/$tarball") B)" >&2

cd "$here"
rm -rf dist
npm ci --no-audit --no-fund --loglevel=error || fail "npm ci failed"
# --no-save: the tarball changes with every build, so it stays out of package.json and the lock.
npm install --no-save --no-audit --no-fund --loglevel=error "$tmp/$tarball" || fail "installing the tarball failed"
# The app is TypeScript in strict mode: its use of the API is checked against the package's
# declarations. skipLibCheck as in Vite's own template: wasm-bindgen's `[Symbol.dispose]` needs
# lib esnext.disposable, which an ES2022 app does not load.
npx tsc --noEmit -p . || fail "tsc found type errors against the package's declarations"
npx vite build --logLevel warn || fail "vite build failed"
node check.mjs --devserver "$devserver" --dist dist
