#!/usr/bin/env bash
# The framework bindings as apps use them. Packs pkg/ with `npm pack`, installs the tarball next
# to this suite's pinned dependencies (package-lock.json, `npm ci`), copies each app into a fresh
# directory under .work/ and runs its check.mjs side by side: react/ (Vite + React + React
# Router, StrictMode), next/ (Next.js App Router: `next build` + `next start`, then `next dev`,
# StrictMode), vue/ (Vite + Vue + vue-router), types/ (strict tsc). Each check builds its app,
# starts its own devserver on a free port and drives headless Chromium.
#
# Prints each check, then "N passed, M failed" per app and a closing line. SKIP_BUILD_PKG=1
# reuses pkg/; DEVSERVER=BIN uses a built devserver; ONLY="react vue" runs only those.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export NEXT_TELEMETRY_DISABLED=1

fail() { echo "bindings: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
all=(react next vue types)
apps=()
for a in "${all[@]}"; do
  if [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $a "* ]]; then apps+=("$a"); fi
done

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

cd "$here"
"$root/scripts/npm-ci-once" . || fail "npm ci failed"
npm install --no-save --no-audit --no-fund --prefer-offline --loglevel=error "$tmp/$tarball" || fail "installing the tarball failed"

rm -rf .work
mkdir -p .work
for app in "${apps[@]}"; do
  mkdir -p ".work/$app"
  cp -R "$app/." ".work/$app/"
  (
    s=$SECONDS
    node "$app/check.mjs" --work ".work/$app" --devserver "$devserver" >".work/$app.log" 2>&1
    echo "$? $((SECONDS - s))" >".work/$app.rc"
  ) &
done
wait

failed=0
for app in "${apps[@]}"; do
  read -r rc secs <".work/$app.rc"
  echo "== $app ($secs s): $(tail -1 ".work/$app.log")"
  cat ".work/$app.log"
  [ "$rc" = 0 ] || failed=$((failed + 1))
done
if [ "$failed" = 0 ]; then echo "bindings: ${#apps[@]} apps passed"; else echo "bindings: $failed of ${#apps[@]} apps failed"; exit 1; fi
