#!/usr/bin/env bash
# How fast `agora batch` runs: 100 trading games and 100 ten-turn bidding debates on the demo model
# (one job, then four), and the same with four jobs against the local LLM server answering every
# call after 200 ms (tests/e2e/llm-server-cli.mjs on 127.0.0.1). Prints each batch's own line
# ("N runs in S s (R runs a second, J at a time)") and checks each CSV against the runs' event
# logs with `agora batch merge` of the one file (which re-reads every row). Takes about 8 minutes,
# nearly all of it the 200 ms calls.
#
#   bash tests/bench/batch.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
cargo build --release --quiet
agora="$repo/target/release/agora"
work="$(mktemp -d)"
trap 'kill $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT

batch() { # label, then agora batch arguments
  local label=$1; shift
  printf '%-52s ' "$label"
  rm -f "$work/out.csv" # a batch refuses a file that holds rows unless it is resumed
  "$agora" batch "$@" --out "$work/out.csv" 2>&1 >/dev/null | grep ' runs in '
}

batch "trading game x100, demo model, 1 job" preset:trading-game --seeds 1..100
batch "trading game x100, demo model, 4 jobs" preset:trading-game --seeds 1..100 --jobs 4
batch "bidding debate (10 turns) x100, demo model, 1 job" preset:rail-debate --seeds 1..100 --turns 10
batch "bidding debate (10 turns) x100, demo model, 4 jobs" preset:rail-debate --seeds 1..100 --turns 10 --jobs 4

# The local LLM server, 200 ms before every answer; it serves until its standard input closes.
mkfifo "$work/stdin"
node tests/e2e/llm-server-cli.mjs --latency 200 < "$work/stdin" > "$work/url" &
server_pid=$!
exec 3> "$work/stdin"
for _ in $(seq 1 50); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(head -1 "$work/url")
export AGORA_API_KEY=sk-bench
provider=(--provider custom --base-url "$url" --model bench-model)
batch "trading game x100, server at 200 ms, 4 jobs" preset:trading-game --seeds 1..100 --jobs 4 "${provider[@]}"
batch "bidding debate (10 turns) x100, server at 200 ms, 4 jobs" preset:rail-debate --seeds 1..100 --turns 10 --jobs 4 "${provider[@]}" --events-dir "$work/events"
"$agora" batch merge "$work/out.csv" --out "$work/again.csv" >/dev/null 2>&1
cmp -s "$work/out.csv" "$work/again.csv" && echo "the last CSV reads back unchanged ($(($(wc -l < "$work/out.csv") - 1)) rows, $(ls "$work/events" | wc -l) event logs)"
exec 3>&-
