//! Why a call to a provider failed, as plain data: the provider layer classifies each failed
//! response into a [`Failure`], which travels typed through the engine (inside
//! [`crate::model::ModelError::Provider`]) and is put into words only where it is shown.

use serde::Serialize;

use crate::catalog::{Dialect, ProviderPreset};
use crate::i18n::{say, t, tf};

/// A change Agora made to a request because the provider refused part of it (a failure it
/// recovered from by adapting the request, recorded on the call).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Adaptation {
    /// The request field that was refused, such as `max_tokens` or `stream_options`.
    pub parameter: String,
    /// What was done: "dropped", "renamed to max_completion_tokens" or "set to false".
    pub change: String,
    /// The provider's own words.
    pub message: String,
}

impl Adaptation {
    /// What Agora did, as a sentence says it: "dropped it", "renamed it to
    /// max_completion_tokens", "set it to false".
    pub fn done(&self) -> String {
        match self.change.split_once(' ') {
            Some((verb, rest)) => format!("{verb} it {rest}"),
            None => format!("{} it", self.change),
        }
    }
}

/// Why a call failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// 401 or 403.
    Auth {
        status: u16,
        message: String,
    },
    /// 429; `retry_after_ms` when the provider said how long to wait and it could be read,
    /// `limit` the calls a minute it said the key may make.
    RateLimited {
        retry_after_ms: Option<u64>,
        limit: Option<u32>,
        message: String,
    },
    /// 429 or 402 saying the quota or spending limit is used up: waiting will not help.
    Quota(String),
    /// 5xx.
    Server {
        status: u16,
        message: String,
    },
    /// Any other status.
    Rejected {
        status: u16,
        message: String,
    },
    FirstByteTimeout(u64),
    IdleTimeout(u64),
    /// No status at all, in the browser: offline, a wrong address, or a refusal by CORS.
    Network(String),
    /// No status at all, from the terminal: nothing answered at the address (no server there,
    /// a wrong address or port, DNS, a firewall, TLS). CORS does not apply outside a browser.
    Unreachable(String),
    /// A reply or stream chunk that could not be read.
    Malformed(String),
    /// An error event inside a 200 stream.
    StreamError(String),
    /// A 400 or 422 that names a field Agora can leave out or rename: the dialect that
    /// would be accepted, and the change. Asked again at once; never retried as it is.
    Adaptable(Box<(Dialect, Adaptation)>),
    Cancelled,
}

impl Failure {
    /// Whether trying again may help.
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            Failure::RateLimited { .. }
                | Failure::Server { .. }
                | Failure::FirstByteTimeout(_)
                | Failure::IdleTimeout(_)
                | Failure::Malformed(_)
                | Failure::StreamError(_)
        )
    }

    /// What the user reads while a retry is still to come: what happened, not yet "after every
    /// retry".
    pub fn retry_note(&self, provider: &ProviderPreset, base_url: &str) -> String {
        let p = provider.label;
        match self {
            Failure::RateLimited { message, .. } => {
                tf(say::FailRetry429, &[("provider", &p), ("message", message)])
            }
            Failure::Server { status, message } => {
                tf(say::FailRetryServer, &[("provider", &p), ("status", status), ("message", message)])
            }
            other => other.describe(provider, base_url),
        }
    }

    /// What the user reads when a call has failed for good: what happened and what to do.
    pub fn describe(&self, provider: &ProviderPreset, base_url: &str) -> String {
        let p = provider.label;
        match self {
            Failure::Auth { status, message } => {
                tf(say::FailAuth, &[("provider", &p), ("status", status), ("message", message)])
            }
            Failure::RateLimited { message, .. } => {
                tf(say::FailRateLimited, &[("provider", &p), ("message", message)])
            }
            Failure::Quota(message) => tf(say::FailQuota, &[("provider", &p), ("message", message)]),
            Failure::Server { status, message } => {
                tf(say::FailServer, &[("provider", &p), ("status", status), ("message", message)])
            }
            Failure::Rejected { status, message } => {
                tf(say::FailRejected, &[("provider", &p), ("status", status), ("message", message)])
            }
            Failure::FirstByteTimeout(ms) => tf(say::FailFirstByte, &[("provider", &p), ("s", &(ms / 1000))]),
            Failure::IdleTimeout(ms) => tf(say::FailIdle, &[("provider", &p), ("s", &(ms / 1000))]),
            Failure::Network(detail) => {
                let local = base_url.contains("localhost") || base_url.contains("127.0.0.1");
                let hint = if !provider.browser_note.is_empty() {
                    provider.browser_note
                } else if local {
                    t(say::FailHintLocal)
                } else {
                    t(say::FailHintRemote)
                };
                tf(say::FailNetwork, &[("url", &base_url), ("detail", detail), ("hint", &hint)])
            }
            Failure::Unreachable(detail) => {
                tf(say::FailUnreachable, &[("url", &base_url), ("detail", detail)])
            }
            Failure::Malformed(message) => tf(say::FailMalformed, &[("provider", &p), ("message", message)]),
            Failure::StreamError(message) => tf(say::FailStream, &[("provider", &p), ("message", message)]),
            Failure::Adaptable(change) => tf(
                say::FailAdaptable,
                &[("provider", &p), ("parameter", &change.1.parameter), ("message", &change.1.message)],
            ),
            Failure::Cancelled => t(say::FailStopped).into(),
        }
    }
}

/// A failed call with what is needed to say so: which provider, at which address.
#[derive(Clone, Debug)]
pub struct ProviderError {
    pub failure: Failure,
    pub provider: &'static ProviderPreset,
    pub base_url: String,
}

impl PartialEq for ProviderError {
    fn eq(&self, other: &Self) -> bool {
        self.failure == other.failure
            && self.provider.id == other.provider.id
            && self.base_url == other.base_url
    }
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.failure.describe(self.provider, &self.base_url))
    }
}

impl Failure {
    /// Rewrites every text the provider sent (its messages, a stream's error, an unreadable
    /// reply), so nothing the provider echoed leaves unchecked (the key scrub uses this).
    pub fn map_text(&mut self, f: impl Fn(&str) -> String) {
        match self {
            Failure::Auth { message, .. }
            | Failure::RateLimited { message, .. }
            | Failure::Server { message, .. }
            | Failure::Rejected { message, .. }
            | Failure::Quota(message)
            | Failure::Network(message)
            | Failure::Unreachable(message)
            | Failure::Malformed(message)
            | Failure::StreamError(message) => *message = f(message),
            Failure::Adaptable(change) => change.1.message = f(&change.1.message),
            Failure::FirstByteTimeout(_) | Failure::IdleTimeout(_) | Failure::Cancelled => {}
        }
    }
}
