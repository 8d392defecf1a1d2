//! The page's tools module (`src/bin/agora-tools.rs`): a second small WebAssembly build with the
//! core code only some uses need (a batch's rows and report, the Markdown transcript), fetched
//! the first time one of them is used, so none of it is on the first page; and how the page
//! fetches and starts such a module (the demo model's too, `app::demo`).

/// The tools module (`src/bin/agora-tools.rs`), fetched and started once.
pub async fn module() -> Result<wasm_bindgen::JsValue, String> {
    wasm_module("tools/agora-tools.js", "the tools module").await
}

thread_local! {
    /// The modules that have started, by path, for callers that cannot wait (`started`).
    static STARTED: std::cell::RefCell<Vec<(&'static str, wasm_bindgen::JsValue)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The WebAssembly module whose script is at `path`, once it has started (`what` names it in an
/// error). The page's start file fetches and starts each once, whoever asks first
/// (`agoraStart`, boot/start.js): a second start would set up a second copy of its memory.
pub async fn wasm_module(path: &'static str, what: &'static str) -> Result<wasm_bindgen::JsValue, String> {
    let m = wasm_bindgen_futures::JsFuture::from(super::intab::start_module(path)).await.map_err(|e| {
        format!(
            "{what} could not be fetched ({}): check the connection, then try again (or reload the page)",
            super::intab::words(&e)
        )
    })?;
    if started(path).is_none() {
        STARTED.with(|s| s.borrow_mut().push((path, m.clone())));
    }
    Ok(m)
}

/// The module at `path` if it has started, at once.
pub fn started(path: &'static str) -> Option<wasm_bindgen::JsValue> {
    STARTED.with(|s| s.borrow().iter().find(|(p, _)| *p == path).map(|(_, m)| m.clone()))
}

/// Calls the tools module's `name` with `args`; its text, or the error it gave.
pub fn call(m: &wasm_bindgen::JsValue, name: &str, args: &[wasm_bindgen::JsValue]) -> Result<String, String> {
    Ok(call_value(m, name, args)?.as_string().unwrap_or_default())
}

/// Calls module `m`'s `name` with `args`; what it answered, or the error it gave.
pub fn call_value(
    m: &wasm_bindgen::JsValue,
    name: &str,
    args: &[wasm_bindgen::JsValue],
) -> Result<wasm_bindgen::JsValue, String> {
    use wasm_bindgen::JsCast;
    let f: js_sys::Function = js_sys::Reflect::get(m, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the tools module has no {name}"))?;
    let args: js_sys::Array = args.iter().collect();
    let out = f.apply(&wasm_bindgen::JsValue::NULL, &args).map_err(|e| super::intab::words(&e))?;
    Ok(out)
}

/// Calls the tools module's `name` with `args` once the module is loaded, then `then` with its
/// text or the error. One future serves every such caller (each `async` block awaiting
/// [`module`] would carry a copy of its loading).
pub fn spawn_call(
    name: &'static str,
    args: Vec<wasm_bindgen::JsValue>,
    then: Box<dyn FnOnce(Result<String, String>)>,
) {
    leptos::task::spawn_local(async move {
        let out = match module().await {
            Ok(m) => call_async(&m, name, &args).await,
            Err(e) => Err(e),
        };
        then(out);
    });
}

/// Calls the tools module's `name` (async or not) with `args` and awaits its text, or the error
/// it gave.
pub async fn call_async(
    m: &wasm_bindgen::JsValue,
    name: &str,
    args: &[wasm_bindgen::JsValue],
) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let out = call_value(m, name, args)?;
    let out = match out.dyn_into::<js_sys::Promise>() {
        Ok(promise) => {
            wasm_bindgen_futures::JsFuture::from(promise).await.map_err(|e| super::intab::words(&e))?
        }
        Err(text) => text,
    };
    Ok(out.as_string().unwrap_or_default())
}
