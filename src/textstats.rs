//! Text statistics of a run's speeches, read from its event log with no model: cheap,
//! deterministic figures about *what* was said, beside the run statistics about *who* spoke.
//!
//! Per agent, over its speeches (an agent's messages that came back whole or broke off; not
//! injected messages, refusals or empty turns):
//!
//! - **repetition**: the share of its word trigrams that it had already said in an earlier speech
//!   of its own. 0 when every speech is new wording; it does not notice a point made again in
//!   other words, nor catchphrases shorter than three words.
//! - **responsiveness**: for each speech that follows someone else's message, the share of the
//!   speech's content words (words that are not stop words) that the previous message used too;
//!   averaged over those speeches. It counts shared words, not agreement or engagement: a reply
//!   that quotes the topic's own words scores a little without answering anyone.
//! - **coverage**: the share of each speech's content words found in the topic or the agent's own
//!   description, averaged. It measures staying on the announced subject in its words, not
//!   relevance: synonyms do not count.
//! - **length**: words per speech against the scenario's word limit (1.0 is the limit; above it,
//!   the limit was exceeded).
//!
//! Words are lowercase runs of letters and digits; stage directions between asterisks count as
//! words too, as the agents hear them. Chinese and Japanese, written without spaces, count a word
//! a character, and their content words are the pairs of characters side by side.

use std::collections::{BTreeSet, HashSet};

use crate::events::{Event, MessageKind};

/// One agent's text statistics (each 0 to 1 but `length`; `None` where there was nothing to
/// measure, as an agent who never spoke, or never spoke after another).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentText {
    pub agent: String,
    pub speeches: u32,
    pub repetition: Option<f64>,
    pub responsiveness: Option<f64>,
    pub coverage: Option<f64>,
    pub length: Option<f64>,
}

/// Words too common to say anything about what a speech takes up (English).
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "don",
    "down", "each", "even", "every", "few", "for", "from", "get", "got", "had", "has", "have", "having",
    "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just",
    "let", "like", "ll", "make", "me", "more", "most", "much", "must", "my", "no", "nor", "not", "now", "of",
    "off", "on", "once", "one", "only", "or", "other", "our", "ours", "out", "over", "own", "re", "s",
    "said", "same", "say", "she", "should", "so", "some", "such", "t", "than", "that", "the", "their",
    "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under",
    "up", "us", "ve", "very", "was", "we", "well", "were", "what", "when", "where", "which", "while", "who",
    "whom", "why", "will", "with", "would", "yes", "you", "your", "yours",
];

/// The lowercase words of `text`: runs of letters and digits, and in a script written without
/// spaces (Chinese, Japanese) each character on its own.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for run in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !run.chars().any(crate::text::unspaced) {
            out.push(run.to_lowercase());
            continue;
        }
        let mut word = String::new();
        for c in run.chars() {
            if crate::text::unspaced(c) {
                out.extend((!word.is_empty()).then(|| std::mem::take(&mut word).to_lowercase()));
                out.push(c.to_string());
            } else {
                word.push(c);
            }
        }
        out.extend((!word.is_empty()).then(|| word.to_lowercase()));
    }
    out
}

/// The words of `text` that are not stop words, once each. In Chinese and Japanese, where a
/// single character says little, each pair of characters side by side stands for a word (as
/// search engines index those scripts without a dictionary).
fn content(text: &str) -> BTreeSet<String> {
    let all = words(text);
    let single = |w: &str| w.chars().count() == 1 && w.chars().all(crate::text::unspaced);
    let mut out: BTreeSet<String> = all
        .iter()
        .filter(|w| !single(w) && STOP_WORDS.binary_search(&w.as_str()).is_err())
        .cloned()
        .collect();
    out.extend(
        all.windows(2).filter(|p| single(&p[0]) && single(&p[1])).map(|p| format!("{}{}", p[0], p[1])),
    );
    out
}

/// The share of `speech`'s content words that `other` holds; `None` for a speech with none.
fn share(speech: &BTreeSet<String>, other: &BTreeSet<String>) -> Option<f64> {
    (!speech.is_empty()).then(|| speech.intersection(other).count() as f64 / speech.len() as f64)
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Every agent's text statistics for the run `events` record, in the cast's order.
pub fn of(events: &[Event]) -> Vec<AgentText> {
    let Some(Event::RunStarted { scenario, .. }) = events.first() else { return Vec::new() };
    let mut topic = content(&scenario.topic);
    let mut descriptions: Vec<BTreeSet<String>> =
        scenario.agents.iter().map(|a| content(&a.description)).collect();
    // Per agent: its trigrams so far, and each figure's values.
    let n = scenario.agents.len();
    let mut said: Vec<HashSet<[String; 3]>> = vec![HashSet::new(); n];
    let (mut trigrams, mut repeated) = (vec![0usize; n], vec![0usize; n]);
    let mut responsive: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut covered: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut lengths: Vec<Vec<f64>> = vec![Vec::new(); n];
    let limit = f64::from(scenario.word_limit.max(1));
    let mut previous: Option<(String, BTreeSet<String>)> = None;
    for event in events {
        match event {
            Event::TopicSpecified { specified, .. } => topic.extend(content(specified)),
            Event::CharacterDescribed { agent, description } => {
                if let Some(i) = scenario.agent_index(agent) {
                    descriptions[i] = content(description);
                }
            }
            Event::Message { speaker, text, kind, .. } => {
                let words_of = content(text);
                let spoken = matches!(kind, MessageKind::Agent | MessageKind::Incomplete);
                if let (true, Some(i)) = (spoken, scenario.agent_index(speaker)) {
                    let all = words(text);
                    lengths[i].push(all.len() as f64 / limit);
                    for w in all.windows(3) {
                        let gram = [w[0].clone(), w[1].clone(), w[2].clone()];
                        trigrams[i] += 1;
                        if said[i].contains(&gram) {
                            repeated[i] += 1;
                        }
                    }
                    // Counted against earlier speeches only: a phrase said twice in one speech
                    // is not repetition of what was said before.
                    said[i].extend(all.windows(3).map(|w| [w[0].clone(), w[1].clone(), w[2].clone()]));
                    if let Some((before, heard)) = &previous {
                        if before != speaker {
                            responsive[i].extend(share(&words_of, heard));
                        }
                    }
                    let on_topic: BTreeSet<String> = topic.union(&descriptions[i]).cloned().collect();
                    covered[i].extend(share(&words_of, &on_topic));
                }
                if !text.trim().is_empty() {
                    previous = Some((speaker.clone(), words_of));
                }
            }
            _ => {}
        }
    }
    scenario
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| AgentText {
            agent: a.name.clone(),
            speeches: lengths[i].len() as u32,
            repetition: (trigrams[i] > 0).then(|| repeated[i] as f64 / trigrams[i] as f64),
            responsiveness: mean(&responsive[i]),
            coverage: mean(&covered[i]),
            length: mean(&lengths[i]),
        })
        .collect()
}

impl AgentText {
    /// The figures as the page's table shows them, in its columns' order: speeches, then takes
    /// up the previous speaker, repeats itself, words of the topic and length, in percent.
    pub fn cells(&self) -> [String; 5] {
        let percent = |v: Option<f64>| {
            v.map_or("–".to_string(), |v| {
                format!("{}{}", (v * 100.0).round() as i64, crate::i18n::percent_sign())
            })
        };
        [
            self.speeches.to_string(),
            percent(self.responsiveness),
            percent(self.repetition),
            percent(self.coverage),
            percent(self.length),
        ]
    }
}

#[cfg(test)]
mod tests;
