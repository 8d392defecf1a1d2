//! Long lists that stay fast: rows are grouped in fixed chunks, each with its own keyed list, so
//! appending a row touches one chunk. The existing rows are never rebuilt, and the work per
//! update is one cheap key comparison per row plus a diff of a single chunk, instead of a keyed
//! diff of the whole list.

use std::sync::Arc;

use leptos::prelude::*;

/// Rows per chunk.
const CHUNK: usize = 40;

/// The keys of rows `start..end`, read in one go.
pub type Keys = Arc<dyn Fn(usize, usize) -> Vec<u64> + Send + Sync>;
/// Row `i`, rendered.
pub type Row = Arc<dyn Fn(usize) -> Option<AnyView> + Send + Sync>;

/// Renders rows `0..len` (newest last, or newest first with `newest_first`). A row's key must
/// change whenever its content does, so that a row still being filled in (a bid turn waiting for
/// its winner) is redrawn and no other. Only the newest row may change.
///
/// Not generic: every list of the app shares one copy of this code in the browser build.
pub fn chunked(len: Memo<usize>, keys: Keys, row: Row, newest_first: bool) -> AnyView {
    let chunks = move || {
        let n = len.get().div_ceil(CHUNK);
        let order: Vec<usize> = if newest_first { (0..n).rev().collect() } else { (0..n).collect() };
        order
    };
    view! {
        <For
            each=chunks
            key=|c| *c
            children=move |c| {
                let keys = keys.clone();
                let row = row.clone();
                let chunk_keys = Memo::new(move |previous: Option<&Vec<(usize, u64)>>| {
                    let n = len.get();
                    let start = c * CHUNK;
                    let end = (start + CHUNK).min(n);
                    // A full chunk without the newest row never changes again: keep its keys
                    // without reading the rows, so old chunks cost nothing per update.
                    if let Some(previous) = previous.filter(|p| p.len() == CHUNK && end < n) {
                        return previous.clone();
                    }
                    let mut out: Vec<(usize, u64)> = (start..end).zip(keys(start, end)).collect();
                    if newest_first {
                        out.reverse();
                    }
                    out
                });
                view! {
                    <For
                        each=move || chunk_keys.get()
                        key=|k| *k
                        children=move |(i, _)| untrack(|| row(i))
                    />
                }
            }
        />
    }
    .into_any()
}

/// One row key from the parts of a row that change. Two lists of the same length that differ
/// anywhere give different keys (each step is invertible), which is all a row's key needs.
pub fn key(parts: &[u64]) -> u64 {
    parts.iter().fold(0xcbf2_9ce4_8422_2325, |h, p| (h ^ p).wrapping_mul(0x0000_0100_0000_01b3))
}
