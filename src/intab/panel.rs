//! What the in-tab model's settings show, decided apart from the page (`app::intab_panel` draws
//! it): which offer the download or load stands at, and the words for the engine's place.

use crate::text::fixed;

/// Where the panel's download or load of the scenario's model stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    #[default]
    Idle,
    /// The download was asked for and waits for a yes.
    Asking,
    Downloading,
    Loading,
    Failed,
}

/// What the panel offers about the scenario's model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// "Download ... from ...?" with Download and Not now.
    Confirm,
    /// The download's progress, with Cancel.
    Progress,
    Loading,
    /// The engine holds the scenario's model.
    Ready,
    /// A copy is kept in this browser: Load.
    Kept,
    /// Download, which needs an address, storage and an engine this browser can run.
    Download {
        enabled: bool,
    },
}

/// The offer at `stage`, while the engine holds the scenario's model (`here`) or not, with a copy
/// kept (`kept`), and whether this browser can download and run one (`can`).
pub fn offer(stage: Stage, here: bool, kept: bool, can: bool) -> Offer {
    match stage {
        Stage::Asking => Offer::Confirm,
        Stage::Downloading => Offer::Progress,
        Stage::Loading => Offer::Loading,
        Stage::Idle | Stage::Failed if here => Offer::Ready,
        Stage::Idle | Stage::Failed if kept => Offer::Kept,
        Stage::Idle | Stage::Failed => Offer::Download { enabled: can },
    }
}

/// Bytes in megabytes, one decimal ("386.2 MB").
pub fn megabytes(bytes: f64) -> String {
    format!("{} MB", fixed(bytes / 1_048_576.0, 1))
}

/// A size in megabytes, or in gigabytes from a thousand million bytes.
pub fn size(bytes: f64) -> String {
    if bytes >= 1e9 {
        format!("{} GB", fixed(bytes / 1_073_741_824.0, 1))
    } else {
        megabytes(bytes)
    }
}

/// Why the page is not cross-origin isolated (so the engine has one thread), from what its
/// service worker's side (`boot/offline.js`) saw.
pub fn unisolated(why: &str) -> String {
    match why {
        "none" => "this browser offers the page no service worker (a private window may turn them off) to add the COOP and COEP headers its host does not send".into(),
        "next" => "the page becomes cross-origin isolated at its next load, once its service worker has started".into(),
        "reload" => "its service worker is now installed, and the page has threads once reloaded".into(),
        "refused" => "the browser did not isolate the page even with the headers its service worker adds".into(),
        _ => match why.strip_prefix("failed: ") {
            Some(failure) => format!("its service worker could not start ({failure})"),
            None => "this page is not cross-origin isolated: docs/intab.md says how to host it with COOP and COEP".into(),
        },
    }
}

/// What the engine said of a model it loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineLoad {
    /// The model's label, or the name of the file picked.
    pub source: String,
    /// A file picked from this computer, not the scenario's download.
    pub picked: bool,
    pub threads: u32,
    pub multithread: bool,
    /// Q4_1 tensors read as Q5_1.
    pub repacked: u32,
    pub gpu: bool,
    /// Where it runs, and why there.
    pub why: String,
    pub prompt_per_s: f64,
    pub tokens_per_s: f64,
}

/// The line on where the engine runs: what is loaded, its threads (or why it has one), the speed
/// measured here, and what the GPU or a repacked file means for a run.
pub fn engine_line(loaded: Option<&EngineLoad>, isolated: bool, threads: u32, offline_why: &str) -> String {
    let threads = match loaded {
        Some(l) if l.multithread => format!("{} threads", l.threads),
        _ if isolated => format!("{threads} threads"),
        _ => format!("1 thread ({})", unisolated(offline_why)),
    };
    let Some(l) = loaded else { return format!("The engine runs in a worker on {threads}.") };
    let speed = if l.tokens_per_s > 0.0 {
        format!(" · {} tokens a second measured here", fixed(l.tokens_per_s, 1))
    } else {
        String::new()
    };
    let mut line = format!("Loaded: {} · The engine runs in a worker on {threads}{speed}.", l.source);
    if !l.why.is_empty() {
        line.push_str(&format!(" It runs on {}.", l.why));
    }
    if l.gpu {
        line.push_str(
            " On the GPU the same seed may not repeat a run exactly: choose the CPU only for that.",
        );
    }
    if l.repacked > 0 {
        line.push_str(&format!(" Its {} Q4_1 weight tensors are read as Q5_1, which holds the same values and which the engine computes with SIMD (it has no SIMD code for Q4_1).", l.repacked));
    }
    line
}

/// Whether to offer the reload that gives the engine threads: only where one would (the service
/// worker installed after the page loaded), never done unasked.
pub fn offers_reload(loaded: Option<&EngineLoad>, isolated: bool, offline_why: &str) -> bool {
    !loaded.is_some_and(|l| l.multithread) && !isolated && offline_why == "reload"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stage_offers_its_step_and_a_model_at_hand_comes_first() {
        assert_eq!(offer(Stage::Asking, true, true, true), Offer::Confirm);
        assert_eq!(offer(Stage::Downloading, false, false, true), Offer::Progress);
        assert_eq!(offer(Stage::Loading, false, true, true), Offer::Loading);
        assert_eq!(offer(Stage::Idle, true, true, true), Offer::Ready);
        assert_eq!(offer(Stage::Failed, false, true, true), Offer::Kept, "a failed load can be tried again");
        assert_eq!(offer(Stage::Idle, false, false, true), Offer::Download { enabled: true });
        assert_eq!(offer(Stage::Idle, false, false, false), Offer::Download { enabled: false });
    }

    #[test]
    fn the_engine_line_says_its_threads_or_why_it_has_one() {
        assert_eq!(engine_line(None, true, 4, ""), "The engine runs in a worker on 4 threads.");
        assert!(engine_line(None, false, 4, "none").starts_with(
            "The engine runs in a worker on 1 thread (this browser offers the page no service worker"
        ));
        assert!(engine_line(None, false, 1, "failed: boom")
            .contains("(its service worker could not start (boom))"));
        let l = EngineLoad {
            source: "SmolLM2".into(),
            threads: 6,
            multithread: true,
            gpu: true,
            why: "the GPU (WebGPU)".into(),
            tokens_per_s: 12.34,
            repacked: 3,
            ..EngineLoad::default()
        };
        let line = engine_line(Some(&l), false, 1, "");
        assert!(line.starts_with("Loaded: SmolLM2 · The engine runs in a worker on 6 threads · 12.3 tokens a second measured here. It runs on the GPU (WebGPU). On the GPU"), "{line}");
        assert!(line.contains("Its 3 Q4_1 weight tensors"));
        assert!(offers_reload(None, false, "reload"));
        assert!(
            !offers_reload(Some(&l), false, "reload")
                && !offers_reload(None, true, "reload")
                && !offers_reload(None, false, "next")
        );
        assert_eq!((size(386.0 * 1_048_576.0), size(2e9)), ("386.0 MB".to_string(), "1.9 GB".to_string()));
    }
}
