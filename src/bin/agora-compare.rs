//! The comparison page's WebAssembly build (`compare.html`): fetched only when a comparison
//! opens, so none of its code is on the first page (see `agora::app::comparison`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    agora::app::comparison::start();
}
