//! The terminal runner's transport: ureq on a thread per call, its status and body chunks handed
//! back over channels, so calls of one turn run at once under any executor.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use futures::channel::{mpsc, oneshot};
use futures::future::LocalBoxFuture;
use futures::StreamExt;

use super::{Failure, HttpBody, HttpRequest, Transport};

pub struct NativeTransport {
    agent: ureq::Agent,
    /// Bumped by `abort_all`: threads of older calls stop reading and drop their connection.
    epoch: Arc<AtomicU64>,
}

impl Default for NativeTransport {
    fn default() -> Self {
        let agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        Self { agent, epoch: Arc::new(AtomicU64::new(0)) }
    }
}

type Head = (u16, Vec<(String, String)>);

impl Transport for NativeTransport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<Box<dyn HttpBody>, Failure>> {
        let (head_tx, head_rx) = oneshot::channel::<Result<Head, Failure>>();
        let (chunk_tx, chunk_rx) = mpsc::unbounded::<Result<Vec<u8>, Failure>>();
        let agent = self.agent.clone();
        let epoch = self.epoch.clone();
        let started = epoch.load(Ordering::SeqCst);
        std::thread::spawn(move || {
            let sent = if request.body.is_empty() {
                let mut call = agent.get(&request.url);
                for (name, value) in &request.headers {
                    call = call.header(name, value);
                }
                call.call()
            } else {
                let mut call = agent.post(&request.url);
                for (name, value) in &request.headers {
                    call = call.header(name, value);
                }
                call.send(request.body.as_str())
            };
            let response = match sent {
                Ok(r) => r,
                Err(e) => {
                    let _ = head_tx.send(Err(Failure::Unreachable(e.to_string())));
                    return;
                }
            };
            let headers = response
                .headers()
                .iter()
                .filter_map(|(k, v)| Some((k.as_str().to_ascii_lowercase(), v.to_str().ok()?.to_string())))
                .collect();
            if head_tx.send(Ok((response.status().as_u16(), headers))).is_err() {
                return;
            }
            let mut reader = response.into_body().into_reader();
            let mut buf = vec![0u8; 8192];
            loop {
                if epoch.load(Ordering::SeqCst) != started {
                    return;
                }
                match std::io::Read::read(&mut reader, &mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        if chunk_tx.unbounded_send(Ok(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = chunk_tx.unbounded_send(Err(Failure::StreamError(format!(
                            "the connection broke off ({e})"
                        ))));
                        return;
                    }
                }
            }
        });
        Box::pin(async move {
            let (status, headers) = head_rx.await.map_err(|_| Failure::Cancelled)??;
            Ok(Box::new(NativeBody { status, headers, chunks: chunk_rx }) as Box<dyn HttpBody>)
        })
    }

    fn abort_all(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
    }
}

struct NativeBody {
    status: u16,
    headers: Vec<(String, String)>,
    chunks: mpsc::UnboundedReceiver<Result<Vec<u8>, Failure>>,
}

impl HttpBody for NativeBody {
    fn status(&self) -> u16 {
        self.status
    }

    fn header(&self, name: &str) -> Option<String> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone())
    }

    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Failure>> {
        Box::pin(async move { self.chunks.next().await.transpose() })
    }
}
