//! What the browser's built-in model's settings show (the Prompt API's `LanguageModel`, drawn by
//! `app::builtin`): the browser's word on its model, read at the wire edge into a [`State`], and
//! what the panel offers in each state and during a download.

/// What the browser says of its model (`LanguageModel.availability()`), or that it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No Prompt API in this browser.
    Missing,
    Unavailable,
    Downloadable,
    Downloading,
    Available,
}

impl State {
    /// The module's word for the state; an unknown word is read as unavailable.
    pub fn from_word(word: &str) -> State {
        match word {
            "missing" => State::Missing,
            "downloadable" => State::Downloadable,
            "downloading" => State::Downloading,
            "available" => State::Available,
            _ => State::Unavailable,
        }
    }
}

/// The browser's model's download, as its monitor reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Download {
    /// From 0 to 1.
    pub loaded: f64,
    pub active: bool,
}

/// What the panel offers besides the browser's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The download's progress, in whole percent.
    Progress(u32),
    /// "Download the built-in model" (the browser asks for a click to start it).
    Download,
    Nothing,
}

/// The offer in `state` while the download stands at `download`: its progress while one runs,
/// the button while the model is downloadable and none runs.
pub fn offer(state: State, download: Download) -> Offer {
    if download.active {
        Offer::Progress((download.loaded.clamp(0.0, 1.0) * 100.0).round() as u32)
    } else if state == State::Downloadable {
        Offer::Download
    } else {
        Offer::Nothing
    }
}

/// The line on the model's context window, once a session told it (0: not yet).
pub fn context_line(tokens: u32) -> Option<String> {
    (tokens > 0).then(|| {
        format!("Context window: {tokens} tokens; a call that does not fit stops the run with a message.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_download_button_shows_only_while_downloadable_and_none_runs() {
        let idle = Download::default();
        assert_eq!(offer(State::Downloadable, idle), Offer::Download);
        for s in [State::Missing, State::Unavailable, State::Downloading, State::Available] {
            assert_eq!(offer(s, idle), Offer::Nothing, "{s:?}");
        }
        let half = Download { loaded: 0.499, active: true };
        assert_eq!(offer(State::Downloadable, half), Offer::Progress(50));
        assert_eq!(offer(State::Available, Download { loaded: 1.7, active: true }), Offer::Progress(100));
    }

    #[test]
    fn the_browsers_words_read_as_states_and_an_unknown_one_as_unavailable() {
        assert_eq!(State::from_word("available"), State::Available);
        assert_eq!(State::from_word("downloadable"), State::Downloadable);
        assert_eq!(State::from_word("downloading"), State::Downloading);
        assert_eq!(State::from_word("missing"), State::Missing);
        assert_eq!(State::from_word("after-download"), State::Unavailable);
        assert_eq!(context_line(0), None);
        assert!(context_line(6000).unwrap().starts_with("Context window: 6000 tokens"));
    }
}
