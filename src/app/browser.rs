//! The browser's services the app uses beyond the DOM: its clock and timers, file downloads, and
//! where copied links open (the setting itself is kept by `storage`).

use futures::future::LocalBoxFuture;
use wasm_bindgen::JsCast;

use crate::clock::Clock;

/// The browser's clock: `performance.now()` and `setTimeout`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        web_sys::window().and_then(|w| w.performance()).map_or_else(js_sys::Date::now, |p| p.now())
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            if let Some(w) = web_sys::window() {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    resolve.unchecked_ref(),
                    ms.min(i32::MAX as u64) as i32,
                );
            }
        });
        Box::pin(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        })
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |what: &str| format!("could not save the file ({what})");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| fail("blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("url"))?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| fail("no document"))?;
    let anchor: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|_| fail("link"))?.unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Where copied links open (see [`crate::link::base`]): the setting, else the address this build
/// was given in `AGORA_LINKS_AT`, else this page's own; and whether the setting was passed over.
pub fn link_base(setting: &str) -> (String, bool) {
    let own = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    crate::link::base(setting, option_env!("AGORA_LINKS_AT"), &own)
}

/// The element with `data-act="name"` a click landed in, if any: panels drawn by the tools
/// module say so what each of their buttons does.
pub fn acted(ev: &web_sys::MouseEvent, name: &str) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target.closest(&format!("[data-act={name}]")).ok().flatten()
}

/// `text` as a quoted CSS string, for an attribute selector.
pub fn css_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\a "))
}
