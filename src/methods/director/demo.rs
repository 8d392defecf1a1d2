//! How the demo model directs a show: comments, picks the next speaker by index, prompts them, sums up.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::demo::cast::{fixed_part, limit_words, sentence_case, Cast, Heard, Person};
use crate::model::{ChatRequest, Cue, Purpose};

impl Cast {
    pub(crate) fn direct(
        &self,
        request: &ChatRequest,
        me: Option<&Person>,
        malformed: bool,
        rng: &mut ChaCha8Rng,
    ) -> String {
        let Cue::Director { topic, word_limit, speakers, turns_taken, last_speaker, last_text, next_speaker } =
            &request.cue
        else {
            return String::new();
        };
        let heard = Heard::reading(request, None, false, crate::demo::cast::HOST_RECENT_BYTES);
        // The director's remark is on the last speech, unless that was its own opening.
        let heard_from = last_speaker.as_deref().filter(|s| me.is_none_or(|p| !p.name.eq_ignore_ascii_case(s)));
        let topic = self.topic(topic);
        // The topic named whole where the class has not heard it lately (a show that ends at
        // once), else by its short name.
        let nobody_spoke = turns_taken.iter().all(|&n| n == 0);
        let it = if nobody_spoke { topic.named_en() } else { topic.it_en() };
        let parties = topic.gainers();
        // Not a gesture the class saw lately.
        let gesture = me.map_or("*smiles*", |p| {
            heard.unheard(p.voice.gestures, |g| g.to_string()).choose(rng).copied().unwrap_or("*smiles*")
        });
        let moderator = me.is_some_and(|p| p.role.to_ascii_lowercase().contains("moderator"));
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
                self.director_prompt_zh(&next, &topic, &heard, nobody_spoke, rng)
            }
            Purpose::DirectorSummary if self.chinese => {
                let said = heard_from.map(|name| (name, last_text.as_str()));
                self.director_summary_zh(&topic, said, moderator, nobody_spoke, rng)
            }
            Purpose::DirectorPrompt => {
                let next = next_speaker.clone().unwrap_or_else(|| "everyone".into());
                let who = parties.choose(rng).map_or("everyone", |p| p.en);
                let mut questions = vec![
                    "{next}, what would {it} mean for {who}?",
                    "{next}, be honest: who actually benefits here?",
                    "{next}, what would you say to {who} who disagree with you?",
                    "{next}, what is the strongest point against you?",
                    "{next}, what would change your mind?",
                    "{next}, if it were your call, what would you do first?",
                    "{next}, who pays, and who gains?",
                    "{next}, what did the others get right?",
                    "{next}, what would your neighbors say about {it}?",
                ];
                if topic.options_en().is_some() {
                    questions.push("{next}, what would make you switch sides?");
                }
                // Nobody has said anything to get right yet.
                if nobody_spoke {
                    questions.retain(|q| !q.contains("the others"));
                }
                let fill = |q: &str| q.replace("{next}", &next).replace("{it}", &it).replace("{who}", who);
                let question = heard.not_asked(&questions, fill).choose(rng).copied().unwrap_or("");
                fill(question)
            }
            // A moderator put over a debate closes it as a moderator, not as the show's host; both
            // leave the class with the last words said.
            Purpose::DirectorSummary => {
                let quote = heard_from
                    .and_then(|name| self.taken_up(&topic, name, last_text, 6).map(|q| (name, q.replace('“', "‘").replace('”', "’"))))
                    .filter(|(_, q)| !q.ends_with('?'));
                let last_words = quote.map_or(String::new(), |(name, q)| format!(" {name} left us with “{q}”."));
                if moderator {
                    format!("{gesture} We have heard the case on every side.{last_words} The decision is yours. Thank you all, and good night.")
                } else {
                    let lines = [
                        format!("{gesture} So there you have it: {it}, explained by people who should know better.{last_words} Thank you all, and good night!"),
                        format!("{gesture} That's our show. On {it}, the argument goes on without us.{last_words} Thanks to my correspondents, and good night!"),
                    ];
                    lines.choose(rng).cloned().unwrap_or_default()
                }
            }
            _ if self.chinese => {
                let said = heard_from.map(|name| (name, last_text.as_str()));
                self.director_comment_zh(said, &topic, &heard, nobody_spoke, rng)
            }
            _ => {
                // A voice from outside the cast (the audience, the class) is thanked as everyone.
                let who = heard_from.filter(|name| self.person(name).is_some()).unwrap_or("everyone");
                // The remark takes up the words just said, where there are some worth taking up.
                let quote = heard_from
                    .and_then(|name| self.taken_up(&topic, name, last_text, 6))
                    .map(|q| q.replace('“', "‘").replace('”', "’"));
                let quoting = [
                    "Thank you, {who}. “{quote}”: hold that thought.",
                    "“{quote}”, says {who}. Write that one down.",
                    "{who}, “{quote}” is a line people will remember.",
                    "“{quote}”. Wow, {who}, that is a lot to process.",
                ];
                let plain = [
                    "Thank you, {who}. So that is where we are on {it}.",
                    "Wow. {who}, that is a lot to process.",
                    "I love that, {who}, and I'm a little scared by it.",
                    "Noted, {who}. Let's hear a different view.",
                    "{who}, I had not thought of it that way.",
                    "{who}, I bet {people} have something to say about that.",
                    "Okay, {who}. Remember who lives with the result: {people}.",
                    "{who}, on this one {people} should get the last word.",
                ];
                // Before anyone of the cast has spoken, a welcome: there is nothing to remark on.
                let opening = ["Good evening, everyone. Tonight: {it}.", "Welcome to the show. Our question tonight: {it}."];
                let lines: &[&str] = if nobody_spoke {
                    &opening
                } else if quote.as_ref().is_some_and(|q| !q.ends_with('?')) {
                    &quoting
                } else {
                    &plain
                };
                let line = heard.unheard(lines, fixed_part).choose(rng).copied().unwrap_or("");
                let people = parties.choose(rng).map_or("people", |p| p.en);
                let line = line
                    .replace("{who}", who)
                    .replace("{it}", &it)
                    .replace("{quote}", quote.as_deref().unwrap_or(""))
                    .replace("{people}", people);
                format!("{gesture} {}", sentence_case(&line))
            }
        };
        limit_words(&crate::demo::cast::closed(text), *word_limit)
    }
}
