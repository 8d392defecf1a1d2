//! Long lists that stay fast: rows are grouped in fixed chunks, each with its own keyed list, so
//! appending a row touches one chunk. The existing rows are never rebuilt, and the work per
//! update is one cheap key comparison per row plus a diff of a single chunk, instead of a keyed
//! diff of the whole list.

use std::hash::Hash;
use std::sync::Arc;

use leptos::prelude::*;

/// Rows per chunk.
const CHUNK: usize = 40;

/// Renders rows `0..len` (newest last, or newest first with `newest_first`). `keys(start, end)`
/// reads the keys of rows `start..end` in one go; a key must change whenever its row's content
/// does, so that a row still being filled in (a bid turn waiting for its winner) is redrawn and
/// no other. Only the newest row may change. `row(i)` gives row `i` to render.
pub fn chunked<T, K, V>(
    len: Memo<usize>,
    keys: impl Fn(usize, usize) -> Vec<K> + Clone + Send + Sync + 'static,
    row: impl Fn(usize) -> Option<Arc<T>> + Clone + Send + Sync + 'static,
    render: impl Fn(Arc<T>) -> V + Clone + Send + Sync + 'static,
    newest_first: bool,
) -> impl IntoView
where
    T: Send + Sync + 'static,
    K: PartialEq + Eq + Hash + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
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
                let render = render.clone();
                let chunk_keys = Memo::new(move |previous: Option<&Vec<(usize, K)>>| {
                    let n = len.get();
                    let start = c * CHUNK;
                    let end = (start + CHUNK).min(n);
                    // A full chunk without the newest row never changes again: keep its keys
                    // without reading the rows, so old chunks cost nothing per update.
                    if let Some(previous) = previous.filter(|p| p.len() == CHUNK && end < n) {
                        return previous.clone();
                    }
                    let mut out: Vec<(usize, K)> = (start..end).zip(keys(start, end)).collect();
                    if newest_first {
                        out.reverse();
                    }
                    out
                });
                view! {
                    <For
                        each=move || chunk_keys.get()
                        key=|k| k.clone()
                        children=move |(i, _)| untrack(|| row(i)).map(|r| render.clone()(r))
                    />
                }
            }
        />
    }
}
