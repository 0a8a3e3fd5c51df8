#!/usr/bin/env bash
# The docs' examples and links: packs pkg/ (built by scripts/build-pkg unless SKIP_BUILD_PKG=1
# and pkg/ exists), installs the tarball next to this suite's pinned TypeScript
# (package-lock.json, `npm ci`), and runs check.mjs: every JS/TS block of README.md and
# docs/ type-checked with tsc --strict against the package (the names a block takes from the
# text around it typed in given.d.ts), fragments skipped with their reasons, and every
# relative link and anchor resolved. Closes with `N passed, M failed`.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/docs
fail() { echo "tests/docs: $*" >&2; exit 1; }

if [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/package.json ]; then
  scripts/build-pkg || fail "scripts/build-pkg failed"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd pkg && npm pack --silent --pack-destination "$tmp") || fail "npm pack failed"

scripts/npm-ci-once "$here" || fail "npm ci failed"
cd "$here"
npm install --no-save --no-audit --no-fund --prefer-offline --loglevel=error "$tmp/$tarball" || fail "installing the tarball failed"
exec node check.mjs "$@"
