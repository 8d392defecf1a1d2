//! The browser's fetch as the providers' transport: streamed bodies read chunk by chunk, and
//! every request in flight abortable at once (Stop).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::provider::{Failure, HttpBody, HttpRequest, Transport};

#[derive(Default)]
pub struct BrowserTransport {
    in_flight: Rc<RefCell<BTreeMap<u64, web_sys::AbortController>>>,
    next_id: RefCell<u64>,
}

/// A fetch that failed before any status: the browser does not say why (offline, a wrong
/// address and a CORS refusal look the same), so the message names them all.
fn network_failure(error: &JsValue) -> Failure {
    let name =
        js_sys::Reflect::get(error, &"name".into()).ok().and_then(|n| n.as_string()).unwrap_or_default();
    if name == "AbortError" {
        return Failure::Cancelled;
    }
    let message = js_sys::Reflect::get(error, &"message".into()).ok().and_then(|m| m.as_string());
    Failure::Network(message.unwrap_or_else(|| "the request failed".into()))
}

impl Transport for BrowserTransport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<Box<dyn HttpBody>, Failure>> {
        let id = {
            let mut next = self.next_id.borrow_mut();
            *next += 1;
            *next
        };
        let in_flight = self.in_flight.clone();
        Box::pin(async move {
            let controller = web_sys::AbortController::new().map_err(|e| network_failure(&e))?;
            let headers = web_sys::Headers::new().map_err(|e| network_failure(&e))?;
            for (name, value) in &request.headers {
                headers
                    .append(name, value)
                    .map_err(|_| Failure::Network(format!("the header {name} is not allowed")))?;
            }
            let init = web_sys::RequestInit::new();
            init.set_method(request.method());
            init.set_headers(&headers);
            if !request.body.is_empty() {
                init.set_body(&JsValue::from_str(&request.body));
            }
            init.set_signal(Some(&controller.signal()));
            let window = web_sys::window().ok_or_else(|| Failure::Network("no window".into()))?;
            in_flight.borrow_mut().insert(id, controller);
            let guard = Guard { id, in_flight: in_flight.clone() };
            let response = JsFuture::from(window.fetch_with_str_and_init(&request.url, &init))
                .await
                .map_err(|e| network_failure(&e))?;
            let response: web_sys::Response = response.unchecked_into();
            let reader = response
                .body()
                .map(|b| b.get_reader().unchecked_into::<web_sys::ReadableStreamDefaultReader>());
            Ok(Box::new(FetchBody { response, reader, _guard: guard }) as Box<dyn HttpBody>)
        })
    }

    fn abort_all(&self) {
        let controllers: Vec<_> = std::mem::take(&mut *self.in_flight.borrow_mut()).into_values().collect();
        for c in controllers {
            c.abort();
        }
    }
}

/// Forgets a request's abort handle once its body is done with.
struct Guard {
    id: u64,
    in_flight: Rc<RefCell<BTreeMap<u64, web_sys::AbortController>>>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.in_flight.borrow_mut().remove(&self.id);
    }
}

struct FetchBody {
    response: web_sys::Response,
    reader: Option<web_sys::ReadableStreamDefaultReader>,
    _guard: Guard,
}

impl HttpBody for FetchBody {
    fn status(&self) -> u16 {
        self.response.status()
    }

    fn header(&self, name: &str) -> Option<String> {
        self.response.headers().get(name).ok().flatten()
    }

    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Failure>> {
        Box::pin(async move {
            let Some(reader) = &self.reader else { return Ok(None) };
            let result = JsFuture::from(reader.read()).await.map_err(|e| match network_failure(&e) {
                Failure::Network(m) => Failure::StreamError(format!("the connection broke off ({m})")),
                other => other,
            })?;
            let done =
                js_sys::Reflect::get(&result, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true);
            if done {
                return Ok(None);
            }
            let value = js_sys::Reflect::get(&result, &"value".into()).unwrap_or(JsValue::UNDEFINED);
            Ok(Some(js_sys::Uint8Array::new(&value).to_vec()))
        })
    }
}
