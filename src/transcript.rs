//! The conversation as every agent sees it: seed 000's `message_history`, shared because every
//! agent receives every message.
//!
//! The joined text is kept as it grows, so building a prompt costs one copy of it rather than a
//! fresh join of every line on every call.

/// One line of the conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub speaker: String,
    pub text: String,
}

#[derive(Clone, Debug)]
pub struct Transcript {
    lines: Vec<Line>,
    /// The header and every line as "Name: text", joined by newlines.
    joined: String,
    /// Where the last line starts in `joined`.
    last_start: usize,
}

impl Transcript {
    pub fn new(header: &str) -> Self {
        Self { lines: Vec::new(), joined: header.to_string(), last_start: 0 }
    }

    pub fn push(&mut self, speaker: &str, text: &str) {
        self.joined.push('\n');
        self.last_start = self.joined.len();
        self.joined.push_str(speaker);
        self.joined.push_str(": ");
        self.joined.push_str(text);
        self.lines.push(Line { speaker: speaker.to_string(), text: text.to_string() });
    }

    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    pub fn last(&self) -> Option<&Line> {
        self.lines.last()
    }

    /// The whole history, header first (seed: `"\n".join(message_history)`).
    pub fn joined(&self) -> &str {
        &self.joined
    }

    /// The most recent entry as written in the history (the header while nothing was said).
    pub fn recent(&self) -> &str {
        &self.joined[self.last_start..]
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_like_the_seed() {
        let mut t = Transcript::new("Here is the conversation so far.");
        assert_eq!(t.recent(), "Here is the conversation so far.");
        t.push("Debate Moderator", "Go.");
        t.push("Kanye West", "Yo.");
        assert_eq!(t.joined(), "Here is the conversation so far.\nDebate Moderator: Go.\nKanye West: Yo.");
        assert_eq!(t.recent(), "Kanye West: Yo.");
        assert_eq!(t.last().unwrap().speaker, "Kanye West");
    }
}
