#!/usr/bin/env bash
# The fuzz suite (issue 23): every export and method of the npm package fed hostile values in
# Node 20 and headless Chromium, each case repeated 10,000 times (run.mjs, www/cases.mjs). Builds
# pkg/ with scripts/build-pkg unless SKIP_BUILD_PKG=1 and pkg/ exists (PKG=DIR tests another
# build, e.g. main's), builds the devserver, installs playwright-core with `npm ci` when
# node_modules is missing, and passes its arguments on (--repeat N, --only node|web).
# Closing line: "N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "fuzz: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

cd "$root"
pkg=${PKG:-$root/pkg}
if [ -z "${PKG:-}" ] && { [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/package.json ]; }; then
  scripts/build-pkg || fail "scripts/build-pkg failed"
fi
cargo build --quiet -p devserver || fail "the devserver does not build"
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')

cd "$here"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund --loglevel=error || fail "npm ci failed"
fi
node run.mjs --devserver "$target_dir/debug/devserver" --pkg "$pkg" "$@"
