#!/usr/bin/env bash
# The npm package where users put it. Packs pkg/ with `npm pack`, installs the tarball with npm
# next to every consumer's dependencies (one package-lock.json, `npm ci`, the usual npm cache),
# copies each app into a fresh directory under .work/ and runs its check.mjs, several side by
# side: Vite, webpack 5, esbuild, a plain page with an import map, Next.js (`next build` +
# `next start`, and `next dev` under StrictMode), a Node worker, and strict tsc. Each check
# builds the app, starts its own devserver on a free port and checks in headless Chromium (or
# Node) that calls from the devserver are answered.
#
# Prints one line per consumer, then "N passed, M failed"; a failed consumer's log follows its
# line. SKIP_BUILD_PKG=1 reuses pkg/; DEVSERVER=BIN uses a built devserver; CONSUMER_JOBS=N runs
# N at once (default 4); ONLY="vite node" runs only those.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export NEXT_TELEMETRY_DISABLED=1

fail() { echo "consumers: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

# name:source directory:check script (in the source directory)
all=(next:next:check.mjs next-dev:next:check-dev.mjs vite:vite:check.mjs webpack:webpack:check.mjs
  esbuild:esbuild:check.mjs importmap:importmap:check.mjs node:node:check.mjs tsc:tsc:check.mjs)
consumers=()
for c in "${all[@]}"; do
  if [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" ${c%%:*} "* ]]; then consumers+=("$c"); fi
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
echo "consumers: packed $tarball ($(stat -c %s "$tmp/$tarball") B): $(tar tzf "$tmp/$tarball" | sed 's|^package/||' | sort | tr '\n' ' ')" >&2

cd "$here"
t0=$SECONDS
"$root/scripts/npm-ci-once" . || fail "npm ci failed"
# --no-save: the tarball changes with every build, so it stays out of package.json and the lock.
npm install --no-save --no-audit --no-fund --prefer-offline --loglevel=error "$tmp/$tarball" || fail "installing the tarball failed"
echo "consumers: dependencies and the tarball installed ($((SECONDS - t0)) s)" >&2

rm -rf .work
mkdir -p .work
start_consumer() {
  local name=$1 dir=$2 check=$3
  local work=".work/$name"
  mkdir -p "$work"
  cp -R "$dir/." "$work/"
  cp shared/app.js "$work/app.js"
  (
    s=$SECONDS
    node "$dir/$check" --work "$work" --devserver "$devserver" >".work/$name.log" 2>&1
    echo "$? $((SECONDS - s))" >".work/$name.rc"
  ) &
}

jobs_max=${CONSUMER_JOBS:-4}
for c in "${consumers[@]}"; do
  IFS=: read -r name dir check <<<"$c"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 0.5; done
  echo "consumers: $name started" >&2
  start_consumer "$name" "$dir" "$check"
done
wait

passed=0; failed=0
for c in "${consumers[@]}"; do
  name=${c%%:*}
  read -r rc secs <".work/$name.rc" 2>/dev/null || { rc=1; secs=?; }
  summary=$(tail -n 1 ".work/$name.log")
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    printf 'ok   %-10s %s (%s s)\n' "$name" "$summary" "$secs"
  else
    failed=$((failed + 1))
    printf 'FAIL %-10s %s (%s s)\n' "$name" "$summary" "$secs"
    sed 's/^/       /' ".work/$name.log" | grep -v '^       ok ' | tail -n 40
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
