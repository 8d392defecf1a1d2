//! Agora: multi-agent LLM dialogue simulations that run in the browser.
//!
//! The core (scenario, engine, methods, game rules, event log, models without a network) is plain
//! Rust with no browser types, tested natively. Around it sit the terminal runner (`cli`, native
//! only) and the Leptos app (`app`, wasm only), which renders the event log and sends commands.

pub mod announce;
pub mod autogen;
pub mod batch;
pub mod catalog;
pub mod clock;
pub mod compare;
pub mod controls;
pub mod decisions;
pub mod demo;
pub mod engine;
pub mod estimate;
pub mod events;
pub mod export;
pub mod failure;
pub mod floor;
pub mod form;
pub mod game;
pub mod i18n;
pub mod intab;
pub mod json;
pub mod judge;
pub mod keys;
pub mod link;
pub mod markup;
pub mod methods;
pub mod model;
pub mod notebook;
pub mod parse;
pub mod presets;
pub mod prompts;
pub mod provider;
pub mod python;
pub mod replay;
pub mod reply;
pub mod room;
pub mod scenario;
pub mod scripted;
pub mod seat;
pub mod session;
pub mod text;
pub mod textstats;
pub mod tournament;
pub mod trace;
pub mod transcript;
pub mod view;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod app;

#[cfg(target_arch = "wasm32")]
pub mod panels;

#[cfg(target_arch = "wasm32")]
pub mod ui;
