#!/usr/bin/env bash
# The adapters of client-tools/adapters through the real agent SDKs (pinned in
# package-lock.json): one Node script per vendor, side by side, against one devserver (its
# WebSocket simulators for ElevenLabs and OpenAI Realtime) or a local route of their own.
# Each script prints "ok - …" or "FAIL - …" per check; this prints each script's output, then
# "N passed, M failed" over all checks. SKIP_BUILD_PKG=1 reuses pkg/; DEVSERVER=BIN uses a built
# devserver; ONLY="elevenlabs openai" runs only those.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

fail() { echo "vendors: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

all=(execute elevenlabs openai aisdk agui livekit)
vendors=()
for v in "${all[@]}"; do
  [ -f "$here/$v.mjs" ] || continue
  if [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $v "* ]]; then vendors+=("$v"); fi
done

if [ "${SKIP_BUILD_PKG:-0}" != 1 ] || [ ! -f pkg/package.json ]; then
  scripts/build-pkg >/dev/null || fail "scripts/build-pkg failed"
fi
devserver=${DEVSERVER:-}
if [ -z "$devserver" ]; then
  cargo build --quiet -p devserver || fail "the devserver does not build"
  target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
  devserver="$target_dir/debug/devserver"
fi
scripts/npm-ci-once "$here" || fail "npm ci failed"
# The package as an app installs it (its files as package.json lists them).
rm -rf "$here/node_modules/client-tools"
mkdir -p "$here/node_modules/client-tools"
(cd pkg && node -e 'for (const f of require("./package.json").files) console.log(f)' | while read -r f; do
  [ -e "$f" ] && cp -R "$f" "$here/node_modules/client-tools/"; done; cp package.json "$here/node_modules/client-tools/")

tmp=$(mktemp -d)
log="$tmp/devserver.log"
"$devserver" --addr 127.0.0.1:0 >"$log" 2>&1 &
dev_pid=$!
trap 'kill $dev_pid 2>/dev/null; rm -rf "$tmp"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(sed -n '1s/^listening on //p' "$log")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || fail "the devserver did not start: $(cat "$log")"

pids=()
for v in "${vendors[@]}"; do
  (cd "$here" && CLIENT_TOOLS_DEVSERVER="$url" timeout 120 node "$v.mjs" >"$tmp/$v.out" 2>&1; echo $? >"$tmp/$v.rc") &
  pids+=($!)
done
wait "${pids[@]}"
passed=0; failed=0
for v in "${vendors[@]}"; do
  echo "--- $v"
  cat "$tmp/$v.out"
  ok=$(grep -c '^ok - ' "$tmp/$v.out")
  bad=$(grep -c '^FAIL - ' "$tmp/$v.out")
  rc=$(cat "$tmp/$v.rc")
  # A script that died before or between its checks counts as one more failure.
  if [ "$rc" != 0 ] && [ "$bad" = 0 ]; then bad=1; echo "FAIL - $v: exited $rc"; fi
  passed=$((passed + ok)); failed=$((failed + bad))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
