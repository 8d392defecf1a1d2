//! Share links: a scenario, or a whole recorded run, packed into the URL fragment, which browsers
//! never send to a server.
//!
//! A fragment reads `s=1.DATA` (a scenario) or `run=1.DATA` (a run file: scenario and event
//! log), where 1 is the link format's version and DATA is zlib-compressed JSON in URL-safe base64.
//! The same packing keeps saved runs small in the browser's storage. Decoding checks everything
//! a hand-edited or damaged link can get wrong, in order, and says which: the prefix, the version,
//! the base64, the compression (zlib's checksum catches corruption), the unpacked size (so a
//! small link cannot unpack to gigabytes), the JSON, and then the same validation as a scenario
//! typed in the editor or a run file opened from disk. Keys are not part of a scenario or a run,
//! so no link can carry one.

use base64::Engine as _;

use crate::events::Event;
use crate::export::{self, RunFile};
use crate::scenario::Scenario;

/// Where copied links open: `chosen` (the page's "links open at" setting) when it is an http or
/// https address, else `built` (the address the build was given, e.g. its GitHub Pages address)
/// when it is one, else `own` (the address of the page that copies the link; the comparison
/// page's own address names the app beside it). The query and fragment are dropped, and an
/// address that names a folder without its last slash gets one, so a fragment never lands on a
/// redirect. The flag says that `chosen` was given and passed over.
pub fn base(chosen: &str, built: Option<&str>, own: &str) -> (String, bool) {
    // Byte-wise on purpose: this runs on the first page, where each kind of string search costs.
    let after_scheme = |address: &str| -> Option<usize> {
        let rest = address.strip_prefix("https://").or_else(|| address.strip_prefix("http://"))?;
        Some(address.len() - rest.len())
    };
    let usable = |address: &&str| {
        after_scheme(address).is_some_and(|at| {
            let host = &address.as_bytes()[at..];
            !host.is_empty() && host[0] != b'/' && host.iter().all(|&b| b > b' ')
        })
    };
    let chosen = chosen.trim();
    let picked = Some(chosen).filter(usable).or(built.map(str::trim).filter(usable)).unwrap_or(own);
    let end = picked.bytes().position(|b| b == b'#' || b == b'?').unwrap_or(picked.len());
    let picked = &picked[..end];
    let mut at = picked.strip_suffix("compare.html").unwrap_or(picked).to_string();
    let path_from =
        after_scheme(&at).map_or(0, |start| at[start..].find('/').map_or(at.len(), |p| start + p));
    let last = at[path_from..].rsplit('/').next().unwrap_or_default();
    if !at.ends_with('/') && !last.contains('.') {
        at.push('/');
    }
    (at, !chosen.is_empty() && !usable(&chosen))
}

/// The link format this build writes and reads.
pub const LINK_VERSION: u32 = 1;
/// The longest fragment Agora writes. Browsers accept far longer URLs, but chat apps, mail and
/// QR codes do not; a run that packs to more than this is offered as a file instead.
pub const MAX_LINK_CHARS: usize = 60_000;
/// The most a link or a saved run may unpack to, whatever its packed size.
pub const MAX_UNPACKED_BYTES: usize = 16 * 1024 * 1024;

const SCENARIO_PREFIX: &str = "s=";
const RUN_PREFIX: &str = "run=";
const COMPARISON_PREFIX: &str = "cmp=";

/// What a link carries.
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq))]
pub enum Shared {
    Scenario(Scenario),
    Run(RunFile),
    /// A comparison file's text, to read with [`crate::compare::from_json`] (the page has the
    /// tools module read it).
    Comparison(String),
}

/// Compresses `text` as small as it goes and writes it as URL-safe base64.
pub fn pack(text: &str) -> String {
    pack_with(text, 9)
}

/// [`pack`] at a zlib level from 1 (fastest) to 9 (smallest); [`unpack`] reads any of them.
pub fn pack_with(text: &str, level: u8) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(text.as_bytes(), level);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(compressed)
}

/// The text packed by [`pack`]; the error says what is wrong with `data`.
pub fn unpack(data: &str) -> Result<String, String> {
    let compressed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| match e {
            base64::DecodeError::InvalidByte(..) => {
                "the data is damaged (it is not URL-safe base64; was the link changed?)"
            }
            _ => "the data is cut short (was the link copied whole?)",
        })?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&compressed, MAX_UNPACKED_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => format!(
                "the data unpacks to more than {} MB, which Agora refuses",
                MAX_UNPACKED_BYTES / (1024 * 1024)
            ),
            miniz_oxide::inflate::TINFLStatus::FailedCannotMakeProgress => {
                "the data is cut short (was the link copied whole?)".to_string()
            }
            _ => "the data is damaged (it does not decompress)".to_string(),
        })?;
    String::from_utf8(bytes).map_err(|_| "the data is damaged (it is not text)".to_string())
}

/// The fragment (without `#`) for a link to `scenario`.
pub fn scenario_fragment(scenario: &Scenario) -> String {
    let json = serde_json::to_string(scenario).expect("a scenario always serializes");
    format!("{SCENARIO_PREFIX}{LINK_VERSION}.{}", pack(&json))
}

/// The fragment for a link that carries a recorded run; an error when it would be too long.
pub fn run_fragment(scenario: &Scenario, events: &[Event]) -> Result<String, String> {
    let fragment = format!("{RUN_PREFIX}{LINK_VERSION}.{}", pack(&export::to_json_compact(scenario, events)));
    if fragment.len() > MAX_LINK_CHARS {
        return Err(format!(
            "this run is too large for a link ({} characters packed, at most {MAX_LINK_CHARS}): save it as a file instead",
            fragment.len()
        ));
    }
    Ok(fragment)
}

/// The fragment for a link to a comparison file (see [`crate::compare::to_json`]); an error when
/// it would be too long.
pub fn comparison_fragment(file: &str) -> Result<String, String> {
    let fragment = format!("{COMPARISON_PREFIX}{LINK_VERSION}.{}", pack(file));
    if fragment.len() > MAX_LINK_CHARS {
        return Err(format!("{} characters packed, at most {MAX_LINK_CHARS}", fragment.len()));
    }
    Ok(fragment)
}

/// Reads a fragment (with or without the leading `#`). `Ok(None)` when there is nothing to read
/// (no fragment, or one that is not an Agora link, like an anchor); otherwise the scenario or run,
/// or one line saying what is wrong.
pub fn decode(fragment: &str) -> Result<Option<Shared>, String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment).trim();
    let (kind, rest) = if let Some(rest) = fragment.strip_prefix(SCENARIO_PREFIX) {
        (SCENARIO_PREFIX, rest)
    } else if let Some(rest) = fragment.strip_prefix(RUN_PREFIX) {
        (RUN_PREFIX, rest)
    } else if let Some(rest) = fragment.strip_prefix(COMPARISON_PREFIX) {
        (COMPARISON_PREFIX, rest)
    } else {
        return Ok(None);
    };
    let (version, data) = rest.split_once('.').ok_or("the link is cut short (it has no data)")?;
    match version.parse::<u32>() {
        Ok(LINK_VERSION) => {}
        Ok(v) if v > LINK_VERSION => {
            return Err(format!(
                "the link was made by a newer Agora (link version {v}; this one reads version {LINK_VERSION})"
            ))
        }
        _ => return Err(format!("the link has an unknown version \"{}\"", crate::text::clip(version, 20))),
    }
    let text = unpack(data).map_err(|e| format!("the link cannot be read: {e}"))?;
    if kind == RUN_PREFIX {
        export::from_json(&text)
            .map(|file| Some(Shared::Run(file)))
            .map_err(|e| format!("the link's run: {e}"))
    } else if kind == COMPARISON_PREFIX {
        Ok(Some(Shared::Comparison(text)))
    } else {
        Scenario::from_json(&text)
            .map(|s| Some(Shared::Scenario(s)))
            .map_err(|e| format!("the link's scenario: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn links_open_at_the_chosen_address_else_the_builds_else_the_pages_own() {
        let own = "http://127.0.0.1:8080/agora/index.html?x=1#s=1.abc";
        assert_eq!(base("", None, own).0, "http://127.0.0.1:8080/agora/index.html");
        let pages = Some("https://someone.github.io/agora");
        assert_eq!(base("", pages, own), ("https://someone.github.io/agora/".to_string(), false));
        assert_eq!(base(" https://class.example.org/x/ ", pages, own).0, "https://class.example.org/x/");
        assert_eq!(
            base("class.example.org", pages, own),
            ("https://someone.github.io/agora/".to_string(), true)
        );
        assert_eq!(base("https://", None, own).0, "http://127.0.0.1:8080/agora/index.html");
        assert_eq!(base("", Some("ftp://x"), own).0, "http://127.0.0.1:8080/agora/index.html");
    }

    #[test]
    fn the_comparison_pages_address_names_the_app_beside_it() {
        let own = "http://127.0.0.1:9/agora/compare.html?1700000000#cmp=1.abc";
        assert_eq!(base("", None, own).0, "http://127.0.0.1:9/agora/");
        assert_eq!(base("", None, "https://host.example/").0, "https://host.example/");
        assert_eq!(base("", None, "https://host.example").0, "https://host.example/");
    }

    #[test]
    fn packing_round_trips_and_is_url_safe() {
        for text in ["", "a", "héllo wörld ✓", &"long repeated text ".repeat(1000)] {
            let packed = pack(text);
            assert!(packed.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{packed}");
            assert_eq!(unpack(&packed).unwrap(), text);
        }
        assert!(pack(&"x".repeat(100_000)).len() < 1_000, "repetition compresses");
    }

    #[test]
    fn a_comparison_link_carries_the_files_text() {
        let text = "{\"format\":\"agora-comparison\"}";
        let fragment = comparison_fragment(text).unwrap();
        assert!(fragment.starts_with("cmp=1."), "{fragment}");
        assert_eq!(decode(&format!("#{fragment}")), Ok(Some(Shared::Comparison(text.to_string()))));
        // Letters in an order that does not repeat: they do not compress below the limit.
        let mut x = 1u64;
        let long: String = (0..120_000)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                char::from(b'a' + (x >> 59) as u8 % 26)
            })
            .collect();
        assert!(comparison_fragment(&long).unwrap_err().contains("at most 60000"));
        assert!(decode("cmp=2.abc").unwrap_err().contains("newer Agora"));
    }

    #[test]
    fn fragments_that_are_not_links_are_ignored() {
        for fragment in ["", "#", "#top", "section-2", "#x=1.abc"] {
            assert_eq!(decode(fragment), Ok(None), "{fragment}");
        }
    }

    #[test]
    fn a_bomb_is_refused_without_unpacking_it_all() {
        let bomb = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(miniz_oxide::deflate::compress_to_vec_zlib(&vec![b' '; MAX_UNPACKED_BYTES + 1], 9));
        assert!(bomb.len() < 40_000, "a small link: {}", bomb.len());
        let e = decode(&format!("s=1.{bomb}")).unwrap_err();
        assert!(e.contains("more than 16 MB"), "{e}");
    }

    #[test]
    fn each_kind_of_damage_has_its_own_message() {
        let scenario = crate::presets::PRESETS[0].scenario();
        let good = scenario_fragment(&scenario);
        assert_eq!(decode(&good), Ok(Some(Shared::Scenario(scenario.clone()))));
        let data = good.strip_prefix("s=1.").unwrap();
        let cases = [
            ("s=1", "cut short".to_string()),
            (&format!("s=7.{data}") as &str, "newer Agora (link version 7".to_string()),
            (&format!("s=one.{data}"), "unknown version \"one\"".to_string()),
            (&format!("s=1.{}", &data[..data.len() / 2]), "cut short".to_string()),
            (&format!("s=1.{}", data.replace(['A', 'B'], "*")), "not URL-safe base64".to_string()),
            (&format!("s=1.{}{}{}", &data[..40], "_-_-_-_-_-_-_-_-_-_-", &data[60..]), "damaged".to_string()),
            (
                &format!("s=1.{}", pack("{\"version\":1")),
                "the link's scenario: not a valid scenario".to_string(),
            ),
            (&format!("s=1.{}", pack("[1,2]")), "the link's scenario".to_string()),
            (&format!("run=1.{}", pack(&scenario.to_json_pretty())), "not an Agora run".to_string()),
        ];
        for (fragment, expected) in cases {
            let e = decode(fragment).unwrap_err();
            assert!(e.contains(&expected), "{fragment:.40}: {e}");
        }
    }

    #[test]
    fn a_run_too_long_for_a_link_is_refused_with_the_way_out() {
        let mut scenario = crate::presets::PRESETS[0].scenario();
        scenario.max_turns = 300;
        let events = crate::engine::demo_events(&scenario);
        let e = run_fragment(&scenario, &events).unwrap_err();
        assert!(e.contains("too large for a link") && e.contains("save it as a file instead"), "{e}");
        let short = &events[..40];
        assert!(run_fragment(&scenario, short).is_ok());
    }

    #[test]
    fn limits_on_the_scenario_apply_to_links() {
        let mut scenario = crate::presets::PRESETS[0].scenario();
        let agent = scenario.agents[0].clone();
        scenario.agents =
            (0..40).map(|i| crate::scenario::AgentSpec { name: format!("A{i}"), ..agent.clone() }).collect();
        scenario.topic = "t".repeat(crate::scenario::MAX_TEXT_CHARS + 1);
        let e = decode(&scenario_fragment(&scenario)).unwrap_err();
        assert!(e.contains("at most 16 agents") && e.contains("topic"), "{e}");
        let json = serde_json::to_string(&scenario).unwrap().replace("\"seed\":", "\"seed\":\"x\",\"_\":");
        let e = decode(&format!("s=1.{}", pack(&json))).unwrap_err();
        assert!(e.contains("not a valid scenario"), "{e}");
    }
}
