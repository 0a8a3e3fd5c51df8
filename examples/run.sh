#!/usr/bin/env bash
# The examples of client-tools/testing (docs/testing.md), each testing the demo app's tools with
# the in-page agent, no server: vitest/ (Node and happy-dom), playwright/ (a Chromium page),
# rust/ (wasm-pack test --headless --chrome). Packs pkg/ with `npm pack` and installs the tarball
# next to each JS example's pinned dependencies (package-lock.json, scripts/npm-ci-once: npm's one
# cache), as an app installs the package.
#   examples/run.sh        SKIP_BUILD_PKG=1 reuses pkg/; ONLY="vitest rust" runs only those
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}

fail() { echo "examples: $*" >&2; exit 1; }
wanted() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

if [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/testing/index.js ]; then
  scripts/build-pkg || fail "scripts/build-pkg failed"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd pkg && npm pack --silent --pack-destination "$tmp") || fail "npm pack failed"

failed=()
run() { # name, then the command
  local name=$1 s=$SECONDS
  shift
  echo "== examples/$name"
  if "$@"; then echo "== examples/$name: ok ($((SECONDS - s)) s)"; else failed+=("$name"); echo "== examples/$name: FAILED ($((SECONDS - s)) s)"; fi
}
js() { # dir, then the test command
  local dir=$1
  shift
  (
    cd "$here/$dir" &&
      "$root/scripts/npm-ci-once" . &&
      npm install --no-save --no-audit --no-fund --prefer-offline --loglevel=error "$tmp/$tarball" &&
      "$@"
  )
}
wanted vitest && run vitest js vitest npx vitest run
wanted playwright && run playwright js playwright npx playwright test
wanted rust && run rust env WASM_BINDGEN_TEST_TIMEOUT=60 wasm-pack test --headless --chrome "$here/rust"

[ ${#failed[@]} -eq 0 ] || fail "failed: ${failed[*]}"
echo "examples: all passed"
