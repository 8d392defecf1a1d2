//! The in-tab model's own small WebAssembly build, fetched with its engine module
//! (`public/intab/agora-intab.js`) and never on the first page: it turns the [`Reply`] a call
//! asks for into the grammar and token budget the engine samples with, and tells the settings
//! panel which models Agora offers and where a scenario's model comes from. The code is the
//! core's (`agora::intab`), so the grammars the engine gets are the ones the native tests
//! draw from.

#[cfg(target_arch = "wasm32")]
mod exports {
    use agora::intab;
    use wasm_bindgen::prelude::wasm_bindgen;

    /// The shape of a call (see [`intab::shape_json`]).
    #[wasm_bindgen]
    pub fn shape(call: &str) -> Result<String, String> {
        intab::shape_json(call)
    }

    /// The models Agora offers, as JSON.
    #[wasm_bindgen]
    pub fn models() -> String {
        serde_json::to_string(&intab::MODELS).unwrap_or_default()
    }

    /// Where the model a scenario names comes from (see [`intab::source`]).
    #[wasm_bindgen]
    pub fn source(name: &str) -> Option<String> {
        intab::source(name)
    }

    /// How a model's address is shown (see [`intab::label`]).
    #[wasm_bindgen]
    pub fn label(url: &str) -> String {
        intab::label(url)
    }

    /// The context the engine is loaded with, in tokens.
    #[wasm_bindgen]
    pub fn context_tokens() -> u32 {
        intab::CONTEXT_TOKENS
    }
}

fn main() {}
