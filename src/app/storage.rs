//! Keeps the user's work in the browser's local storage, so a reload, a crash or a closed tab
//! loses nothing: the scenario being edited, the run on screen (a live run mid-way comes back
//! paused at its last recorded turn; a replay at the step it had reached) and a list of past runs.
//!
//! Runs are stored packed like share links (see [`crate::link`]). Saved data that cannot be read
//! is kept aside under its own key with a message, never overwritten with defaults; when storage
//! is full or disabled the app says so and works in memory.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::events::{Event, FinishReason};
use crate::export::{self, RunFile};
use crate::link;
use crate::scenario::Scenario;

const SCENARIO_KEY: &str = "agora.scenario";
const RUN_KEY: &str = "agora.run";
const HISTORY_KEY: &str = "agora.history";
const LINKS_AT_KEY: &str = "agora.linksAt";
const INTAB_PACE_KEY: &str = "agora.intab.pace";
/// The comparison open in the frame, as it stands (see [`keep_open_comparison`]).
const OPEN_COMPARISON_KEY: &str = "agora.comparison";
/// Set while the app shows a comparison's frame.
const COMPARISON_SHOWN_KEY: &str = "agora.comparison.shown";
/// The batch that has not ended yet: its rows so far, kept as each run finishes.
const OPEN_BATCH_KEY: &str = "agora.batch";
/// Past runs kept; saving one more drops the oldest.
pub const HISTORY_LIMIT: usize = 30;

/// The browser's local storage, where it allows one (shared by the page's keepers: runs, keys,
/// the room's settings).
pub(crate) fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn get(key: &str) -> Result<Option<String>, String> {
    let store = storage().ok_or("this browser does not allow saving here")?;
    store.get_item(key).map_err(|_| "saved data could not be read".to_string())
}

fn set(key: &str, value: &str) -> Result<(), String> {
    let store = storage().ok_or("this browser does not allow saving here")?;
    store.set_item(key, value).map_err(|_| "the browser's storage is full or disabled".to_string())
}

fn remove(key: &str) {
    if let Some(store) = storage() {
        let _ = store.remove_item(key);
    }
}

/// Moves data that could not be read out of the way, and says where it went.
fn keep_aside(key: &str, text: &str, what: &str, error: &str) -> String {
    let aside = format!("{key}.unreadable");
    let kept = set(&aside, text).is_ok();
    let where_ = if kept {
        format!("it is kept aside in local storage under \"{aside}\"")
    } else {
        "it could not be kept aside".to_string()
    };
    format!("{what} could not be read ({error}); {where_}.")
}

/// The saved scenario, if any, and a message for the user when something was wrong.
pub fn restore() -> (Option<Scenario>, Option<String>) {
    match get(SCENARIO_KEY) {
        Ok(Some(text)) => match Scenario::parse(&text) {
            Ok(scenario) => (Some(scenario), None),
            Err(e) => (None, Some(keep_aside(SCENARIO_KEY, &text, "Your saved scenario", &e))),
        },
        Ok(None) => (None, None),
        Err(e) => (None, Some(format!("Saving is not possible ({e}): your work is kept in memory only."))),
    }
}

/// Saves `scenario` whenever it changes; `notice` tells the user if saving stops working.
pub fn keep_saved(scenario: RwSignal<Scenario>, notice: RwSignal<Option<String>>) {
    Effect::new(move |_| {
        let text = scenario.with(|s| serde_json::to_string(s).unwrap_or_default());
        if let Err(e) = set(SCENARIO_KEY, &text) {
            warn(notice, &format!("Your scenario could not be saved ({e}): it is kept in memory only."));
        }
    });
}

/// How fast the model in the tab ran its warm-up on this device when it last loaded: its name,
/// and the tokens a second it read and wrote. Kept, so a teacher who loaded it the day before
/// sees its pace before loading it again. Kept as whole thousandths, "read write name": read
/// back without a float parser, which would cost the page more than the rest of this.
pub fn intab_pace() -> Option<(String, f64, f64)> {
    let text = get(INTAB_PACE_KEY).ok().flatten()?;
    let mut parts = text.splitn(3, ' ');
    let mut rate = || parts.next()?.parse::<u64>().ok().filter(|&n| n > 0).map(|n| n as f64 / 1000.0);
    let (read, write) = (rate()?, rate()?);
    Some((parts.next()?.to_string(), read, write))
}

/// Keeps what [`intab_pace`] reads.
pub fn keep_intab_pace(source: &str, read_per_s: f64, write_per_s: f64) {
    let milli = |x: f64| (x * 1000.0).round().max(0.0) as u64;
    let _ = set(INTAB_PACE_KEY, &format!("{} {} {source}", milli(read_per_s), milli(write_per_s)));
}

/// The "links open at" setting as the user typed it (empty when unset, or when storage cannot be
/// read: links then open at the page's own address).
pub fn links_at() -> String {
    get(LINKS_AT_KEY).ok().flatten().unwrap_or_default()
}

/// Keeps the "links open at" setting on this device (empty forgets it).
pub fn keep_links_at(text: &str) {
    if text.trim().is_empty() {
        remove(LINKS_AT_KEY);
    } else {
        // Where storage is full or disabled the setting lasts as long as the page.
        let _ = set(LINKS_AT_KEY, text);
    }
}

fn warn(notice: RwSignal<Option<String>>, message: &str) {
    if notice.get_untracked().is_none() {
        notice.set(Some(message.to_string()));
    }
}

/// Events per stored piece of the run on screen: a save rewrites only the pieces that changed,
/// so saving a long run costs what its last turns cost, not what the whole log does.
const PIECE_EVENTS: usize = 100;

/// The run on screen, as saved: its events are in pieces under `agora.run.<i>`.
#[derive(Serialize, Deserialize)]
struct SavedRun {
    /// A replay, rather than a live run.
    replay: bool,
    /// How many events of a replay had been shown.
    position: usize,
    /// How many events each piece holds.
    pieces: Vec<usize>,
}

/// What was on screen when the page was left.
pub struct Restored {
    pub file: RunFile,
    pub replay: bool,
    pub position: usize,
}

/// What the stored pieces hold: the run they belong to (its first event, as JSON), how many events in all
/// and in each piece.
#[derive(Default)]
struct Written {
    first: Option<String>,
    total: usize,
    pieces: Vec<usize>,
}

thread_local! {
    static WRITTEN: std::cell::RefCell<Written> = Default::default();
}

fn piece_key(i: usize) -> String {
    format!("{RUN_KEY}.{i}")
}

/// A run's log packed as past runs and batches keep it.
pub(super) fn pack_run(events: &[Event]) -> Option<String> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else { return None };
    // The fastest level: saving happens as the run goes, and storage is not a link.
    Some(link::pack_with(&export::to_json_compact(scenario, events), 1))
}

/// A packed run read back.
pub(super) fn unpack_run(packed: &str) -> Result<RunFile, String> {
    export::from_json(&link::unpack(packed)?)
}

/// How many pieces the saved run had, to remove those a shorter run leaves behind.
fn saved_pieces() -> usize {
    get(RUN_KEY)
        .ok()
        .flatten()
        .and_then(|t| crate::json::read::<SavedRun>(&t).ok())
        .map_or(0, |s| s.pieces.len())
}

/// Saves the run on screen; an error says why it could not be.
pub fn save_run(events: &[Event], replay: bool, position: usize) -> Result<(), String> {
    if !matches!(events.first(), Some(Event::RunStarted { .. })) {
        forget_run();
        return Ok(());
    }
    WRITTEN.with(|written| {
        let mut w = written.borrow_mut();
        // Logs only grow, except when a failed turn is dropped to be played again.
        let first = events.first().map(Event::to_json);
        if w.first != first || events.len() < w.total {
            *w = Written { pieces: vec![usize::MAX; saved_pieces()], ..Written::default() };
        }
        let pieces: Vec<&[Event]> = events.chunks(PIECE_EVENTS).collect();
        for (i, piece) in pieces.iter().enumerate() {
            if w.pieces.get(i) == Some(&piece.len()) {
                continue;
            }
            let packed = link::pack_with(&Event::list_json(piece), 1);
            if let Err(e) = set(&piece_key(i), &packed) {
                *w = Written::default();
                return Err(e);
            }
            if i < w.pieces.len() {
                w.pieces[i] = piece.len();
            } else {
                w.pieces.push(piece.len());
            }
        }
        for i in pieces.len()..w.pieces.len() {
            remove(&piece_key(i));
        }
        w.pieces.truncate(pieces.len());
        w.first = first;
        w.total = events.len();
        let saved = SavedRun { replay, position, pieces: w.pieces.clone() };
        set(RUN_KEY, &serde_json::to_string(&saved).unwrap_or_default())
    })
}

pub fn forget_run() {
    for i in 0..saved_pieces() {
        remove(&piece_key(i));
    }
    remove(RUN_KEY);
    WRITTEN.with(|w| *w.borrow_mut() = Written::default());
}

/// Reads the saved pieces back into a run file, checked like any run file.
fn read_pieces(saved: &SavedRun) -> Result<RunFile, String> {
    let mut events: Vec<serde_json::Value> = Vec::new();
    for (i, expected) in saved.pieces.iter().enumerate() {
        let packed = get(&piece_key(i))?.ok_or_else(|| format!("part {} of it is missing", i + 1))?;
        let piece: Vec<serde_json::Value> = serde_json::from_str(&link::unpack(&packed)?)
            .map_err(|e| format!("part {} of it is damaged ({e})", i + 1))?;
        if piece.len() != *expected {
            return Err(format!("part {} of it is incomplete", i + 1));
        }
        events.extend(piece);
    }
    let scenario = events.first().and_then(|e| e.get("scenario")).cloned().unwrap_or_default();
    let file = serde_json::json!({
        "format": export::RUN_FORMAT,
        "version": export::RUN_FORMAT_VERSION,
        "scenario": scenario,
        "events": events,
    });
    export::from_json(&file.to_string())
}

/// The run that was on screen, and a message when it could not be read.
pub fn restore_run() -> (Option<Restored>, Option<String>) {
    let text = match get(RUN_KEY) {
        Ok(Some(text)) => text,
        _ => return (None, None),
    };
    let read = crate::json::read::<SavedRun>(&text).map_err(|e| e.to_string()).and_then(|saved| {
        let file = read_pieces(&saved)?;
        WRITTEN.with(|w| {
            *w.borrow_mut() = Written {
                first: file.events.first().map(Event::to_json),
                total: file.events.len(),
                pieces: saved.pieces.clone(),
            }
        });
        Ok(Restored { file, replay: saved.replay, position: saved.position })
    });
    match read {
        Ok(restored) => (Some(restored), None),
        Err(e) => {
            // The pieces go aside with the rest, under the same names.
            for i in 0..saved_pieces() {
                if let Ok(Some(piece)) = get(&piece_key(i)) {
                    let _ = set(&format!("{RUN_KEY}.unreadable.{i}"), &piece);
                }
            }
            let message = keep_aside(RUN_KEY, &text, "The run you had open", &e);
            forget_run();
            (None, Some(message))
        }
    }
}

/// A past run in the list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PastRun {
    pub id: String,
    pub title: String,
    pub method: String,
    pub turns: u32,
    /// How it ended; none when it was left unfinished (written as "" then, as before).
    #[serde(serialize_with = "write_ended", deserialize_with = "read_ended")]
    pub ended: Option<FinishReason>,
    /// When it was saved, in local time ([`crate::clock::stamp`]; older entries in the browser's
    /// own format).
    pub saved: String,
    /// For a batch: how many runs it holds (0 for a single run).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub runs: usize,
    /// For a comparison: how many columns it has (0 otherwise).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub columns: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn write_ended<S: serde::Serializer>(ended: &Option<FinishReason>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(ended.map_or("", FinishReason::as_str))
}

fn read_ended<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<FinishReason>, D::Error> {
    let text = String::deserialize(d)?;
    if text.is_empty() {
        return Ok(None);
    }
    FinishReason::ALL
        .into_iter()
        .find(|r| r.as_str() == text)
        .map(Some)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown end `{text}`")))
}

/// The list of past runs, newest first; an error when it cannot be read (it is then left as it is).
pub fn history() -> Result<Vec<PastRun>, String> {
    match get(HISTORY_KEY)? {
        None => Ok(Vec::new()),
        Some(text) => crate::json::read(&text).map_err(|e| format!("the list of past runs is damaged ({e})")),
    }
}

fn item_key(id: &str) -> String {
    format!("{HISTORY_KEY}.{id}")
}

/// Adds a run to the past runs; returns the updated list.
pub fn archive(events: &[Event]) -> Result<Vec<PastRun>, String> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else { return history() };
    let ended = crate::events::finish_of(events);
    // The turns played to a speech or a move: a run stopped while its next turn's bids were
    // coming in counts the turns the status line says it finished after.
    let turns = events
        .iter()
        .filter(|e| matches!(e, Event::SpeakerSelected { .. } | Event::Message { .. } | Event::Action { .. }))
        .filter_map(Event::turn)
        .max()
        .unwrap_or(0);
    add_past(scenario, turns, ended, 0, &pack_run(events).unwrap_or_default())
}

/// Adds a batch to the past runs: its scenario, its `runs` rows as CSV and the logs it kept
/// (packed), or without the logs when they would not fit. Returns the updated list.
pub fn archive_batch(
    scenario: &Scenario,
    csv: &str,
    runs: usize,
    logs: &super::batch::Logs,
) -> Result<Vec<PastRun>, String> {
    // A batch's logs may be many; beyond this the rows are kept and the runs' logs are not.
    const KEEP_LOGS_UP_TO: usize = 2_000_000;
    let logs =
        if logs.iter().map(|(_, p)| p.len()).sum::<usize>() > KEEP_LOGS_UP_TO { &Vec::new() } else { logs };
    // Written by hand: through `json!` the scenario would be serialized by a second, separate
    // copy of its writer.
    let logs: Vec<String> =
        logs.iter().map(|(seed, packed)| format!("\"{seed}\":{}", json_string(packed))).collect();
    let text = format!(
        "{{\"scenario\":{},\"csv\":{},\"runs\":{runs},\"logs\":{{{}}}}}",
        serde_json::to_string(scenario).unwrap_or_default(),
        json_string(csv),
        logs.join(",")
    );
    add_past(scenario, 0, None, runs.max(1), &link::pack_with(&text, 1))
}

/// Adds a comparison (its file, see [`crate::compare::to_json`]) of `base` with `columns`,
/// described as `how`, to the past runs; returns the updated list.
pub fn archive_comparison(
    file: &str,
    base: &Scenario,
    how: &str,
    columns: usize,
) -> Result<Vec<PastRun>, String> {
    let mut list = add_past(base, 0, None, 0, &link::pack_with(file, 1))?;
    list[0].columns = columns;
    list[0].method = how.to_string();
    set(HISTORY_KEY, &serde_json::to_string(&list).unwrap_or_default())?;
    Ok(list)
}

/// Keeps the comparison on screen (its file without runs, and each column's run as a save
/// keeps a run on screen), so a reload reopens it at the step each column had reached; not once
/// the app has closed its frame (a closing frame saves as it goes).
pub fn keep_open_comparison(text: &str) -> Result<(), String> {
    if !matches!(get(COMPARISON_SHOWN_KEY), Ok(Some(_))) {
        return Ok(());
    }
    set(OPEN_COMPARISON_KEY, &link::pack_with(text, 1))
}

/// The comparison that was on screen when the page was left, if any.
pub fn open_comparison() -> Result<Option<String>, String> {
    get(OPEN_COMPARISON_KEY)?.map(|packed| link::unpack(&packed)).transpose()
}

/// Whether a comparison's frame was open when the page was left.
pub fn comparison_shown() -> bool {
    matches!(get(COMPARISON_SHOWN_KEY), Ok(Some(_))) && matches!(get(OPEN_COMPARISON_KEY), Ok(Some(_)))
}

/// A comparison's frame opens (`new`: another comparison than the one kept), or closes.
pub fn show_comparison(shown: bool, new: bool) {
    if shown {
        let _ = set(COMPARISON_SHOWN_KEY, "1");
    } else {
        remove(COMPARISON_SHOWN_KEY);
    }
    if new || !shown {
        remove(OPEN_COMPARISON_KEY);
    }
}

/// A past comparison's file, read back.
pub fn open_past_comparison(id: &str) -> Result<String, String> {
    link::unpack(&get(&item_key(id))?.ok_or("this comparison is no longer saved")?)
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn add_past(
    scenario: &Scenario,
    turns: u32,
    ended: Option<FinishReason>,
    runs: usize,
    packed: &str,
) -> Result<Vec<PastRun>, String> {
    let mut list = history()?;
    let now = js_sys::Date::new_0();
    let mut id = format!("{}", now.get_time() as u64);
    while list.iter().any(|p| p.id == id) {
        id.push('b');
    }
    let entry = PastRun {
        id: id.clone(),
        title: scenario.title.clone(),
        method: crate::app::method_label(&scenario.method).to_string(),
        turns,
        ended,
        saved: crate::clock::stamp(
            now.get_full_year(),
            now.get_month() + 1,
            now.get_date(),
            now.get_hours(),
            now.get_minutes(),
        ),
        runs,
        columns: 0,
    };
    set(&item_key(&id), packed).map_err(|e| format!("the run could not be added to past runs: {e}"))?;
    list.insert(0, entry);
    for dropped in list.split_off(HISTORY_LIMIT.min(list.len())) {
        remove(&item_key(&dropped.id));
    }
    if let Err(e) = set(HISTORY_KEY, &serde_json::to_string(&list).unwrap_or_default()) {
        remove(&item_key(&id));
        return Err(format!("the run could not be added to past runs: {e}"));
    }
    Ok(list)
}

/// A past batch, read back: its scenario, rows (CSV), how many, and kept logs.
pub fn open_past_batch(id: &str) -> Result<(Scenario, String, usize, super::batch::Logs), String> {
    let text = link::unpack(&get(&item_key(id))?.ok_or("this batch is no longer saved")?)?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("the batch is damaged ({e})"))?;
    let scenario = Scenario::parse(&value["scenario"].to_string())?;
    let (Some(csv), Some(runs)) = (value["csv"].as_str(), value["runs"].as_u64()) else {
        return Err("the batch is damaged (no rows)".into());
    };
    let mut logs = Vec::new();
    for (seed, packed) in value["logs"].as_object().into_iter().flatten() {
        if let (Ok(seed), Some(packed)) = (seed.parse(), packed.as_str()) {
            logs.push((seed, packed.to_string()));
        }
    }
    Ok((scenario, csv.to_string(), runs as usize, logs))
}

/// A batch that had not ended when it was last kept. Its parts sit under keys of their own
/// (`agora.batch.scenario`, `.spec`, `.csv`, `.log.<seed>`, and its progress under
/// `agora.batch`), so a finished run rewrites only the rows and the progress, and reading it back
/// needs no reader of its own.
pub struct OpenBatch {
    pub scenario: Scenario,
    /// The seeds as the user wrote them.
    pub spec: String,
    /// The header and one line per finished run, in seed order.
    pub csv: String,
    pub done: usize,
    pub total: usize,
    /// What the finished runs spent, for the batch's shared spending cap.
    pub tokens: u64,
    pub cost: f64,
    /// The kept logs (packed) by seed.
    pub logs: super::batch::Logs,
}

fn open_batch_key(part: &str) -> String {
    format!("{OPEN_BATCH_KEY}.{part}")
}

/// Starts keeping a batch: what it plays.
pub fn keep_open_batch_start(scenario: &Scenario, spec: &str) -> Result<(), String> {
    set(&open_batch_key("scenario"), &serde_json::to_string(scenario).unwrap_or_default())?;
    set(&open_batch_key("spec"), spec)
}

/// Keeps a finished run of the batch that is running: its log (packed) first, then the rows and
/// the progress (`done total tokens cost` and the seeds whose logs are kept; the cost as the
/// bits of its float, so a resumed batch shares out its cap exactly as before).
pub fn keep_open_batch(csv: &str, progress: &[u64], log: Option<(u64, &str)>) -> Result<(), String> {
    if let Some((seed, packed)) = log {
        set(&open_batch_key(&format!("log.{seed}")), packed)?;
    }
    set(&open_batch_key("csv"), csv)?;
    let progress: Vec<String> = progress.iter().map(u64::to_string).collect();
    set(OPEN_BATCH_KEY, &progress.join(" "))
}

/// Forgets the batch that was running, with the logs it kept of `seeds` (it ended, and is in
/// the past runs).
pub fn forget_open_batch(seeds: impl Iterator<Item = u64>) {
    for seed in seeds {
        remove(&open_batch_key(&format!("log.{seed}")));
    }
    for part in ["scenario", "spec", "csv"] {
        remove(&open_batch_key(part));
    }
    remove(OPEN_BATCH_KEY);
}

/// The batch that was running when the page was left; a message when it could not be read (its
/// parts then stay where they are).
pub fn restore_open_batch() -> Result<Option<OpenBatch>, String> {
    let Ok(Some(progress)) = get(OPEN_BATCH_KEY) else { return Ok(None) };
    let numbers: Vec<u64> = progress.split(' ').filter_map(|n| n.parse().ok()).collect();
    let part = |name: &str| get(&open_batch_key(name)).ok().flatten();
    let (Some(scenario), Some(spec), Some(csv), [done, total, tokens, cost, logged @ ..]) =
        (part("scenario"), part("spec"), part("csv"), numbers.as_slice())
    else {
        return Err("The batch that was running could not be read: a part of it is missing.".into());
    };
    let scenario = Scenario::parse(&scenario)
        .map_err(|e| format!("The batch that was running could not be read ({e})."))?;
    // A log that is missing only means that run cannot be replayed from it.
    let logs = logged.iter().filter_map(|&seed| Some((seed, part(&format!("log.{seed}"))?))).collect();
    Ok(Some(OpenBatch {
        scenario,
        spec,
        csv,
        done: *done as usize,
        total: *total as usize,
        tokens: *tokens,
        cost: f64::from_bits(*cost),
        logs,
    }))
}

/// A past run, read back.
pub fn open_past(id: &str) -> Result<RunFile, String> {
    let text = get(&item_key(id))?.ok_or("this run is no longer saved")?;
    unpack_run(&text)
}

/// Deletes a past run; returns the updated list.
pub fn delete_past(id: &str) -> Result<Vec<PastRun>, String> {
    let mut list = history()?;
    list.retain(|p| p.id != id);
    set(HISTORY_KEY, &serde_json::to_string(&list).unwrap_or_default())?;
    remove(&item_key(id));
    Ok(list)
}
