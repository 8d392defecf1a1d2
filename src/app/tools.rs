//! The page's tools module (`src/bin/agora-tools.rs`): a second small WebAssembly build with the
//! core code only some uses need (a batch's rows and report, the Markdown transcript), fetched
//! the first time one of them is used, so none of it is on the first page.

/// The tools module (`src/bin/agora-tools.rs`), fetched and started once.
pub async fn module() -> Result<wasm_bindgen::JsValue, String> {
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;
    thread_local! {
        static MODULE: std::cell::RefCell<Option<JsValue>> = const { std::cell::RefCell::new(None) };
    }
    if let Some(m) = MODULE.with(|m| m.borrow().clone()) {
        return Ok(m);
    }
    let fetched = |e: JsValue| {
        format!(
            "the tools module could not be fetched ({}); reload the page and try again",
            super::intab::words(&e)
        )
    };
    let m = JsFuture::from(super::intab::import_module("tools/agora-tools.js")).await.map_err(fetched)?;
    let init: js_sys::Function = js_sys::Reflect::get(&m, &"default".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("the tools module cannot be started")?;
    let started = init.call0(&JsValue::NULL).map_err(fetched)?;
    JsFuture::from(js_sys::Promise::from(started)).await.map_err(fetched)?;
    MODULE.with(|slot| *slot.borrow_mut() = Some(m.clone()));
    Ok(m)
}

/// Calls the tools module's `name` with `args`; its text, or the error it gave.
pub fn call(m: &wasm_bindgen::JsValue, name: &str, args: &[wasm_bindgen::JsValue]) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let f: js_sys::Function = js_sys::Reflect::get(m, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the tools module has no {name}"))?;
    let args: js_sys::Array = args.iter().collect();
    let out = f.apply(&wasm_bindgen::JsValue::NULL, &args).map_err(|e| super::intab::words(&e))?;
    Ok(out.as_string().unwrap_or_default())
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
    let f: js_sys::Function = js_sys::Reflect::get(m, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the tools module has no {name}"))?;
    let args: js_sys::Array = args.iter().collect();
    let out = f.apply(&wasm_bindgen::JsValue::NULL, &args).map_err(|e| super::intab::words(&e))?;
    let out = match out.dyn_into::<js_sys::Promise>() {
        Ok(promise) => {
            wasm_bindgen_futures::JsFuture::from(promise).await.map_err(|e| super::intab::words(&e))?
        }
        Err(text) => text,
    };
    Ok(out.as_string().unwrap_or_default())
}
