#!/usr/bin/env bash
# What parts of the browser app cost on the wire: builds the committed head as it is, then again
# with parts of the UI replaced by a single paragraph (or, for "no views", the whole page by three
# buttons and a turn counter, keeping the controller, engine, models, providers, links and saved
# runs), and prints the gzipped wasm of each build. Each build is a throwaway copy in a temporary
# directory; the working tree is not touched. Takes about 12 minutes (six release builds).
#
#   bash tests/bench/size-parts.sh
#
# Same pipeline as `trunk build --release` (cargo, wasm-bindgen, wasm-opt with index.html's passes), so the base figure
# matches `.ci/size` to within a few bytes.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export PATH="$repo/tests/node_modules/.bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/src"
cd "$work/src"

measure() {
  cargo build -q --release --target wasm32-unknown-unknown --bin agora --target-dir "$work/target" 2>/dev/null
  rm -rf "$work/out"
  wasm-bindgen --target web --out-dir "$work/out" "$work/target/wasm32-unknown-unknown/release/agora.wasm" 2>/dev/null
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals \
    --flatten --rereloop -Oz -Oz "$work/out/agora_bg.wasm" -o "$work/out/opt.wasm"
  printf '%-54s wasm gzip %7d   js gzip %5d\n' "$1" \
    "$(gzip -9 -c "$work/out/opt.wasm" | wc -c)" "$(gzip -9 -c "$work/out/agora.js" | wc -c)"
}

# Replaces the body of the function whose signature line is $2 in file $1 with one paragraph.
stub() {
  python3 - "$1" "$2" <<'PY'
import sys
path, signature = sys.argv[1], sys.argv[2]
text = open(path).read()
if signature not in text:
    sys.exit(f"size-parts: '{signature}' is not in {path} any more; update this script")
start = text.index(signature) + len(signature)
end = text.index("\n}\n", start)
open(path, "w").write(text[:start] + '\n    view! { <p>"stub"</p> }.into_any()' + text[end:])
PY
}

measure "as built"

stub src/app.rs 'fn MethodPanel() -> impl IntoView {'
stub src/app/inspector.rs 'pub fn Stats() -> impl IntoView {'
measure "without decision panels and run statistics"
git checkout -q .

stub src/app/editor.rs 'pub fn Editor() -> impl IntoView {'
measure "without the scenario editor"
git checkout -q .

stub src/app/inspector.rs 'pub fn Inspector() -> impl IntoView {'
measure "without the call inspector"
git checkout -q .

stub src/app/share.rs 'pub fn ShareLinks() -> impl IntoView {'
stub src/app/share.rs 'pub fn PastRuns() -> impl IntoView {'
measure "without share links and past runs"
git checkout -q .

# No views at all: everything the page does without showing it stays linked.
python3 - <<'PY'
path = "src/app.rs"
text = open(path).read()
head, tail = '    view! {\n        <header class="top">', "/// The panel for the method"
if head not in text or tail not in text:
    raise SystemExit("size-parts: the App view in src/app.rs changed; update this script")
i, j = text.index(head), text.index(tail)
body = """    let _ = (editor::Editor, editor::Gallery, share::PastRuns, share::LinkMessage);
    let _ = (inspector::Stats, inspector::Inspector, transcript::Transcript, MethodPanel, Controls);
    view! {
        <button on:click=move |_| { let _ = controller.play(&editor.scenario.get_untracked()); }>"Run"</button>
        <button on:click=move |_| { let _ = controller.step(&editor.scenario.get_untracked()); }>"Step"</button>
        <button on:click=move |_| controller.stop()>"Stop"</button>
        <p>
            {move || controller.view.with(|v| v.turn)}
            {move || storage_notice.get()}
            {move || link_notice.get().map(|n: share::LinkNotice| n.text)}
        </p>
    }
}

"""
open(path, "w").write(text[:i] + body + text[j:])
PY
measure "no views (engine, models, providers, links, storage)"
