//! Keeping the user's key out of everything a provider sends back.
//!
//! Some gateways and self-hosted servers repeat the credential they refuse ("Invalid API key:
//! sk-..."), and a model can be made to repeat anything. Whatever comes back from a provider is
//! recorded in the event log, shown on the page, written to exports and links, and printed by
//! the terminal runner, so [`Secrets::scrub`] runs over it first, at the one place replies and
//! failures leave the HTTP model.
//!
//! Besides the whole key, a long piece of it is taken out too (a key cut short, or with its last
//! characters masked). A short prefix and the last four characters, which is how OpenAI prints a
//! refused key ("sk-proj-****abcd"), are left: they identify the key without giving it away.

use std::borrow::Cow;

/// What stands where a key or a long piece of one was.
pub const REDACTED: &str = "[API key removed]";

/// The shortest piece of a key, in characters, that is taken out on its own; a key shorter than
/// this is only taken out whole.
pub const MIN_PIECE: usize = 12;

/// Keys shorter than this are not looked for: a two-letter "key" for a local server would
/// otherwise cut those letters out of every word the models write.
pub const MIN_SECRET: usize = 6;

/// The secrets to keep out of provider output.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Secrets(Vec<String>);

impl Secrets {
    /// The given keys, trimmed, without duplicates and without ones too short to look for.
    pub fn new<I, S>(keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Self::default().with(keys)
    }

    /// These and more keys (the same rules as [`Secrets::new`]).
    pub fn with<I, S>(mut self, keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for key in keys {
            let key = key.as_ref().trim();
            if key.len() >= MIN_SECRET && !self.0.iter().any(|k| k == key) {
                self.0.push(key.to_string());
            }
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every key, and every piece of a key at least [`MIN_PIECE`] long, replaced by
    /// [`REDACTED`]. Borrowed when there was nothing to take out.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        // The bytes to take out, found window by window: any run of the text that matches a
        // piece of a key is covered by the windows of that piece. Windows are whole characters,
        // so what is taken out never splits one. (A mark per byte rather than a sorted list of
        // ranges: sorting would add its code to the page for this alone.)
        let mut covered: Vec<bool> = Vec::new();
        for key in &self.0 {
            // Pieces of MIN_PIECE characters (the whole key when shorter), by character so a
            // piece never splits one.
            let width = MIN_PIECE.min(key.chars().count());
            let mut ends = key.char_indices().map(|(i, _)| i).chain([key.len()]).skip(width);
            for ((start, _), end) in key.char_indices().zip(&mut ends) {
                let window = &key[start..end];
                for (at, _) in text.match_indices(window) {
                    if covered.is_empty() {
                        covered = vec![false; text.len()];
                    }
                    covered[at..at + window.len()].fill(true);
                }
            }
        }
        if covered.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < text.len() {
            let end = covered[i..].iter().position(|&c| c != covered[i]).map_or(text.len(), |n| i + n);
            out.push_str(if covered[i] { REDACTED } else { &text[i..end] });
            i = end;
        }
        Cow::Owned(out)
    }

    /// [`Secrets::scrub`] into an owned string, in place.
    pub fn scrub_in_place(&self, text: &mut String) {
        if let Cow::Owned(clean) = self.scrub(text) {
            *text = clean;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-proj-Abc123Def456Ghi789Jkl012Mno345";

    #[test]
    fn the_whole_key_is_taken_out_wherever_it_stands() {
        let s = Secrets::new([KEY]);
        assert_eq!(s.scrub(&format!("Invalid API key: {KEY}")), format!("Invalid API key: {REDACTED}"));
        assert_eq!(
            s.scrub(&format!("{KEY}{KEY} and Bearer {KEY}.")),
            format!("{REDACTED} and Bearer {REDACTED}.")
        );
        assert_eq!(s.scrub(KEY), REDACTED);
    }

    #[test]
    fn a_long_piece_is_taken_out_but_the_masked_form_providers_print_is_kept() {
        let s = Secrets::new([KEY]);
        // Cut short, or its end masked: still most of the key.
        assert_eq!(s.scrub("key sk-proj-Abc123Def456G... refused"), format!("key {REDACTED}... refused"));
        assert_eq!(s.scrub("key sk-proj-Abc123Def456Ghi789****"), format!("key {REDACTED}****"));
        assert_eq!(s.scrub("ends in 3Def456Ghi789Jkl0!"), format!("ends in {REDACTED}!"));
        // OpenAI's form: a short prefix and the last four characters.
        let masked = "Incorrect API key provided: sk-proj-****************************M345.";
        assert_eq!(s.scrub(masked), masked);
        // Eleven characters of the key in a row are not enough to take out.
        assert_eq!(s.scrub("Abc123Def45"), "Abc123Def45");
    }

    #[test]
    fn nothing_changes_without_a_key_in_the_text_and_short_keys_are_not_looked_for() {
        let s = Secrets::new([KEY, "  ", "abc"]);
        assert!(matches!(s.scrub("Reply 42: ünïcode ✓."), Cow::Borrowed(_)));
        assert_eq!(Secrets::new(["abc", ""]), Secrets::default());
        assert!(Secrets::new(["abc"]).is_empty());
    }

    #[test]
    fn every_key_given_is_looked_for_and_characters_are_never_split() {
        let other = "ключ-очень-секретный-42";
        let s = Secrets::new([KEY]).with([other, KEY]);
        assert_eq!(s, Secrets::new([KEY, other]));
        let text = format!("a {other} b {KEY} c ✓");
        assert_eq!(s.scrub(&text), format!("a {REDACTED} b {REDACTED} c ✓"));
        // Pieces of a non-ASCII key are found byte by byte and widened to whole letters.
        let piece: String = other.chars().take(MIN_PIECE + 1).collect();
        assert_eq!(s.scrub(&format!("x{piece}y")), format!("x{REDACTED}y"));
    }

    #[test]
    fn keys_are_trimmed_like_the_header_that_carries_them() {
        let s = Secrets::new([format!("  {KEY}\n")]);
        assert_eq!(s.scrub(&format!("Bearer {KEY}")), format!("Bearer {REDACTED}"));
    }
}
