#!/usr/bin/env bash
# The hostile-server soak (issue 22): the npm package as users get it (pkg/ packed with
# `npm pack` and installed into tests/hostile/node_modules next to playwright-core, pinned in
# package-lock.json, from the usual npm cache) against tests/hostile/server.mjs, a server that
# breaks the protocol on purpose, scenario by scenario, in Node 20 and headless Chromium
# (run.mjs: what each scenario does and checks).
#
# Builds pkg/ with scripts/build-pkg unless SKIP_BUILD_PKG=1 and pkg/ exists (scripts/test's
# consumers step built it just before); PKG_DIR=DIR packs another build instead (one saved
# from another branch, to compare). Arguments go to run.mjs (--env node, --only a,b,
# --jobs N, --long). Closing line: "N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "hostile: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

cd "$root"
pkg=${PKG_DIR:-$root/pkg}
if [ -z "${PKG_DIR:-}" ] && { [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/package.json ]; }; then
  scripts/build-pkg || fail "scripts/build-pkg failed"
fi
[ -f "$pkg/package.json" ] || fail "no package at $pkg"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd "$pkg" && npm pack --silent --pack-destination "$tmp") || fail "npm pack failed"

cd "$here"
"$root/scripts/npm-ci-once" . || fail "npm ci failed"
# --no-save: the tarball changes with every build, so it stays out of package.json and the lock.
npm install --no-save --no-audit --no-fund --prefer-offline --loglevel=error "$tmp/$tarball" || fail "installing the tarball failed"
# The server's own tests first: in honest mode it keeps the protocol, and each fault does what
# run.mjs assumes, so that a failure below is the SDK's.
node --test --test-reporter=dot server.test.mjs || fail "the hostile server's own tests (server.test.mjs) failed"
node run.mjs "$@"
