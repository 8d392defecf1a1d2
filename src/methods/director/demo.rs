//! How the demo model directs a show: comments, picks the next speaker by index, prompts them, sums up.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::demo::cast::{limit_words, Cast, Heard, Person};
use crate::model::{ChatRequest, Cue, Purpose};

impl Cast {
    pub(crate) fn direct(
        &self,
        request: &ChatRequest,
        me: Option<&Person>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let Cue::Director { topic, word_limit, speakers, turns_taken, last_speaker, next_speaker } =
            &request.cue
        else {
            return String::new();
        };
        let said = topic;
        let heard = Heard::of(request, None);
        // The director's remark is on the last speech, unless that was its own opening.
        let heard_from = last_speaker.as_deref().filter(|s| me.is_none_or(|p| !p.name.eq_ignore_ascii_case(s)));
        let topic = self.short_topic(topic);
        let gesture = me.map_or("*smiles*", |p| p.voice.gestures.choose(rng).copied().unwrap_or("*smiles*"));
        let text = match request.purpose {
            Purpose::DirectorChoice => {
                // Give the floor to whoever has had it least, never straight back to the last.
                let fewest = speakers
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| Some(*s) != last_speaker.as_ref() || speakers.len() == 1)
                    .map(|(i, _)| turns_taken.get(i).copied().unwrap_or(0))
                    .min()
                    .unwrap_or(0);
                let candidates: Vec<usize> = (0..speakers.len())
                    .filter(|&i| turns_taken.get(i).copied().unwrap_or(0) == fewest)
                    .filter(|&i| Some(&speakers[i]) != last_speaker.as_ref() || speakers.len() == 1)
                    .collect();
                let pick = candidates.choose(rng).copied().unwrap_or(0);
                if malformed {
                    let bad = [
                        format!("<{}>", speakers.len() + rng.random_range(0..3)),
                        speakers[pick].clone(),
                        "Let's hear from someone new!".to_string(),
                    ];
                    return bad.choose(rng).cloned().unwrap_or_default();
                }
                return format!("<{pick}>");
            }
            Purpose::DirectorPrompt if self.chinese => {
                let next = next_speaker.clone().unwrap_or_else(|| "各位".into());
                self.director_prompt_zh(&next, said, rng)
            }
            Purpose::DirectorSummary if self.chinese => {
                let moderator = me.is_some_and(|p| p.role.to_ascii_lowercase().contains("moderator"));
                self.director_summary_zh(said, moderator, rng)
            }
            Purpose::DirectorPrompt => {
                let next = next_speaker.clone().unwrap_or_else(|| "everyone".into());
                let questions = [
                    "{next}, what does {topic} look like from where you're standing?",
                    "{next}, be honest: who actually benefits from {topic}?",
                    "{next}, is {topic} a trend or a cry for help?",
                    "{next}, what would your neighbors say about {topic}?",
                ];
                // Not a question the class heard lately, to whomever it went.
                let question = heard.unheard(&questions, |q| fixed_part(q, &topic)).choose(rng).copied().unwrap_or("");
                question.replace("{next}", &next).replace("{topic}", &topic)
            }
            // A moderator put over a debate closes it as a moderator, not as the show's host.
            Purpose::DirectorSummary if me.is_some_and(|p| p.role.to_ascii_lowercase().contains("moderator")) => {
                format!("{gesture} We have heard the case for and against {topic}; the decision is yours. Thank you all, and good night.")
            }
            Purpose::DirectorSummary => {
                let lines = [
                    format!("{gesture} So there you have it: {topic}, explained by people who should know better. Thank you all, and remember: if you sat through this whole show, you're already in training. Good night!"),
                    format!("{gesture} Tonight we learned that {topic} is either the future or a very long nap. Thanks to my correspondents, and stay seated, America!"),
                ];
                lines.choose(rng).cloned().unwrap_or_default()
            }
            _ if self.chinese => self.director_comment_zh(heard_from, said, rng),
            _ => {
                let who = heard_from.unwrap_or("everyone");
                let lines = [
                    "Thank you, {who}. So {topic} is where we are now.",
                    "Wow. {who}, that is a lot to process about {topic}.",
                    "I love that, {who}, and I'm a little scared by it.",
                ];
                let line = heard.unheard(&lines, |l| fixed_part(l, &topic)).choose(rng).copied().unwrap_or("");
                format!("{gesture} {}", line.replace("{who}", who).replace("{topic}", &topic))
            }
        };
        limit_words(&text, *word_limit)
    }
}

/// The longest stretch of `line` between its `{next}` or `{who}` holes, `topic` filled in: what a
/// class would hear again whoever it was said to.
fn fixed_part(line: &str, topic: &str) -> String {
    let filled = line.replace("{topic}", topic);
    filled.split(['{', '}']).max_by_key(|piece| piece.len()).unwrap_or("").to_string()
}
