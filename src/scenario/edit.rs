//! What the editor's edits of a scenario do beyond the field edited: a seat taken or left, an
//! agent renamed with its seat, seats dropped whose agent has gone, and a new topic renaming the
//! show while its title is not the person's own. Plain functions on the scenario, so the page's
//! edits are the ones these tests pin down.

use super::Scenario;

impl Scenario {
    /// Takes (`on`) or leaves the seat of `name`; a seat taken again moves to the end.
    pub fn take_seat(&mut self, name: String, on: bool) {
        self.seats.retain(|n| *n != name);
        if on {
            self.seats.push(name);
        }
    }

    /// Drops seats whose agent has gone or been renamed, so a seat never points at nobody.
    pub fn keep_seats(&mut self) {
        let names = self.seat_names();
        self.seats.retain(|n| names.contains(n));
    }

    /// Sets the topic. While the title is a preset's own (`preset_title`, as
    /// `presets::is_title` says) or the one an earlier topic gave it, the title follows: the
    /// show's kind (the title's part before its colon) with the new topic ("Presidential debate:
    /// Should our school ban phones?"), so the header and the past runs name what is debated. A
    /// title the person wrote stays.
    ///
    /// What still names the old topic is written afresh for the new one by the seeds' own steps,
    /// so a run never argues the old topic: an opening line that names it gives way to the topic
    /// specifier, descriptions that name it to the character descriptions, the demo's phrase for
    /// it is dropped. Says what changed, for the editor to tell.
    pub fn set_topic(&mut self, topic: String, preset_title: bool) -> TopicFollow {
        let head = show_kind(&self.title).to_string();
        let follows = preset_title || self.title == titled(&head, &self.topic);
        let old = std::mem::replace(&mut self.topic, topic);
        if follows {
            self.title = titled(&head, &self.topic);
        }
        let mut follow = TopicFollow::default();
        if old.trim() == self.topic.trim() || old.trim().is_empty() {
            return follow;
        }
        let phrase = std::mem::take(&mut self.model.demo.topic_phrase);
        let stale = |text: &str, new: &str| names_topic(text, &old, &phrase) && !names_topic(text, new, "");
        // The demo's phrase was its author's words for the old topic: kept only while the new
        // topic still holds it whole (a question mark added), never for a topic that merely
        // shares a word with it ("school" in "a four-day school week").
        if !phrase.is_empty() && self.topic.to_lowercase().contains(&phrase.to_lowercase()) {
            self.model.demo.topic_phrase = phrase.clone();
        }
        if !self.opening.text.trim().is_empty() && stale(&self.opening.text, &self.topic) {
            self.opening.text.clear();
            self.opening.specify_topic = true;
            follow.opening = true;
        }
        let topic = self.topic.clone();
        follow.descriptions = self.agents.iter().filter(|a| stale(&a.description, &topic)).count();
        if follow.descriptions > 0 {
            self.opening.describe_characters = true;
        }
        follow
    }

    /// Puts the descriptions a model wrote (`described`, each an agent's name and its
    /// description or why there is none) into the agents of those names; an agent without one
    /// keeps its own. Returns how many changed. The opening's step that writes descriptions is
    /// turned off once any description was written (else a run would write them over again at
    /// its start, and a seat would be asked for its own).
    pub fn use_descriptions(&mut self, described: &[(String, Result<String, String>)]) -> usize {
        if described.iter().any(|(name, text)| text.is_ok() && self.agents.iter().any(|a| a.name == *name)) {
            self.opening.describe_characters = false;
        }
        let mut changed = 0;
        for (name, text) in described {
            let (Some(agent), Ok(text)) = (self.agents.iter_mut().find(|a| a.name == *name), text) else {
                continue;
            };
            if agent.description != *text {
                agent.description = text.clone();
                changed += 1;
            }
        }
        changed
    }

    /// Renames agent `index`, its seat with it; nothing when there is no such agent.
    pub fn rename_agent(&mut self, index: usize, name: String) {
        let Some(agent) = self.agents.get_mut(index) else { return };
        let old = std::mem::replace(&mut agent.name, name.clone());
        for seat in self.seats.iter_mut().filter(|n| **n == old) {
            *seat = name.clone();
        }
    }
}

/// What a new topic changed beside the topic and the title: the opening line and how many
/// descriptions named the old topic, and are now written afresh for the new one when the run
/// starts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TopicFollow {
    pub opening: bool,
    pub descriptions: usize,
}

impl TopicFollow {
    /// Both changes together: what a topic typed a letter at a time changed in all.
    pub fn and(self, other: TopicFollow) -> TopicFollow {
        TopicFollow {
            opening: self.opening || other.opening,
            descriptions: self.descriptions.max(other.descriptions),
        }
    }
}

/// Whether `text` names `topic` (or `phrase`, the demo's short words for it): the phrase in it,
/// a word of substance of the topic ("sitting"), or, in Chinese, four characters of it in a row.
/// A description that only brushes the old topic is written afresh too: a model reading it would
/// drift back to the old topic, and the person sees the step ticked and can untick it.
fn names_topic(text: &str, topic: &str, phrase: &str) -> bool {
    let lower = text.to_lowercase();
    let phrase = phrase.trim().to_lowercase();
    if !phrase.is_empty() && lower.contains(&phrase) {
        return true;
    }
    const SMALL: &str = "the a an and or of to in on for with at by from is are be it this that should would could will can what who how why which whether house believes does more less than";
    let words: Vec<String> = topic
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric() || crate::text::unspaced(c))
        .filter(|w| w.chars().count() >= 4 && !SMALL.split(' ').any(|s| s == *w))
        .map(String::from)
        .collect();
    let said = lower.split(|c: char| !c.is_alphanumeric() || crate::text::unspaced(c)).collect::<Vec<_>>();
    if words.iter().any(|w| said.contains(&w.as_str())) {
        return true;
    }
    let han: Vec<char> = topic.chars().collect();
    han.windows(4)
        .any(|w| w.iter().all(|c| crate::text::unspaced(*c)) && text.contains(&w.iter().collect::<String>()))
}

/// The kind of show a title names: its part before a colon or a comma ("Presidential debate"
/// of "Presidential debate: transcontinental high-speed rail", "《每日秀》" of "《每日秀》：…"),
/// or the whole title.
fn show_kind(title: &str) -> &str {
    title.split([':', ',', '：', '，']).next().unwrap_or(title).trim()
}

/// The most characters of a topic a title holds.
const TITLE_TOPIC_CHARS: usize = 70;

/// A title for a show of `kind` on `topic`: "kind: topic", the topic cut at a word past its
/// first 70 characters.
fn titled(kind: &str, topic: &str) -> String {
    let topic = topic.split_whitespace().collect::<Vec<_>>().join(" ");
    let short = if topic.chars().count() <= TITLE_TOPIC_CHARS {
        topic
    } else {
        let cut: String = topic.chars().take(TITLE_TOPIC_CHARS).collect();
        let at = cut.rfind(' ').unwrap_or(cut.len());
        format!("{}…", cut[..at].trim_end_matches([',', ';', ':']))
    };
    if kind.is_empty() || short.is_empty() {
        if short.is_empty() {
            kind.to_string()
        } else {
            short
        }
    } else if kind.chars().any(crate::text::unspaced) {
        format!("{kind}：{short}")
    } else {
        format!("{kind}: {short}")
    }
}

#[cfg(test)]
mod tests {
    use crate::presets;

    fn debate() -> crate::scenario::Scenario {
        presets::find("rail-debate").expect("the rail debate").scenario()
    }

    #[test]
    fn a_new_topic_renames_the_show_until_the_title_is_the_persons_own() {
        let mut s = debate();
        assert_eq!(s.title, "Presidential debate: transcontinental high-speed rail");
        s.set_topic("Should our school ban phones in class?".into(), presets::is_title(&s.title));
        assert_eq!(s.title, "Presidential debate: Should our school ban phones in class?");
        // Typed a letter at a time, it keeps following.
        s.set_topic("Should our school ban phones in class? Yes".into(), presets::is_title(&s.title));
        assert_eq!(s.title, "Presidential debate: Should our school ban phones in class? Yes");
        // Emptied, the title is the show's kind alone, and follows the next topic typed.
        s.set_topic(String::new(), presets::is_title(&s.title));
        assert_eq!(s.title, "Presidential debate");
        s.set_topic("A".repeat(10) + &" word".repeat(30), presets::is_title(&s.title));
        assert!(s.title.ends_with("word…") && s.title.chars().count() < 100, "{}", s.title);
        // A title the person wrote stays whatever the topic.
        s.title = "Our class debate".into();
        s.set_topic("Homework".into(), presets::is_title(&s.title));
        assert_eq!((s.title.as_str(), s.topic.as_str()), ("Our class debate", "Homework"));
        // Every preset's title follows its first new topic.
        for p in presets::PRESETS {
            let mut s = p.scenario();
            s.set_topic("Four-day weeks".into(), presets::is_title(&s.title));
            assert!(s.title.ends_with(": Four-day weeks"), "{}: {}", p.id, s.title);
        }
    }

    #[test]
    fn what_names_the_old_topic_is_written_afresh_for_the_new_one() {
        // The show's opening and descriptions name competitive sitting: a new topic lets the
        // seeds' steps write them for it, and the demo's phrase for the old topic goes.
        let mut s = presets::find("daily-show-director").unwrap().scenario();
        assert!(!s.opening.text.is_empty() && !s.opening.specify_topic);
        let follow = s.set_topic("Should homework be banned?".into(), presets::is_title(&s.title));
        assert!(follow.opening, "{follow:?}");
        assert!(s.opening.text.is_empty() && s.opening.specify_topic);
        assert!(s.model.demo.topic_phrase.is_empty());
        assert_eq!(s.title, "The Daily Show: Should homework be banned?");
        // Pasted whole, a topic that shares a word with the demo's phrase for the old one
        // ("school" in "a four-day school week") does not keep it, nor the old opening.
        let mut s = presets::find("town-hall-selector").unwrap().scenario();
        let follow = s.set_topic("Should our school ban mobile phones during lessons?".into(), true);
        assert!(follow.opening && s.model.demo.topic_phrase.is_empty(), "{follow:?}");
        // Typed on, nothing more changes, and a line the person wrote for the new topic stays.
        s.opening.text = "Tonight: homework, banned or not?".into();
        s.opening.specify_topic = false;
        let again = s.set_topic("Should homework be banned in primary schools?".into(), false);
        assert_eq!(again, super::TopicFollow::default());
        assert_eq!(s.opening.text, "Tonight: homework, banned or not?");
        // Descriptions that name the old topic are written afresh; the others are kept.
        let mut s = debate();
        s.opening.describe_characters = false;
        s.agents[0].description = "You dream of high-speed rail from coast to coast.".into();
        let follow = s.set_topic("Should our school ban phones?".into(), true);
        assert_eq!(follow.descriptions, 1);
        assert!(s.opening.describe_characters);
        // In Chinese: the preset taken into Chinese, then a topic of the class's own.
        let p = presets::find("daily-show-director").unwrap();
        let mut s = p.scenario();
        crate::i18n::speak(Some(crate::i18n::zh::TABLE));
        let words = crate::i18n::preset_words(p.id).unwrap();
        let card = presets::CARDS.iter().find(|c| c.id == p.id).unwrap();
        let title = crate::i18n::card(p.id, card.title, card.summary).0.to_string();
        assert!(presets::put_words(&mut s, p, &words));
        s.title = title;
        let follow = s.set_topic("周末补习班应该被取消吗？".into(), presets::is_title(&s.title));
        crate::i18n::speak(None);
        assert!(follow.opening && s.opening.specify_topic, "{follow:?} {:?}", s.opening.text);
        assert!(s.title.ends_with("：周末补习班应该被取消吗？"), "{}", s.title);
        assert!(!s.title.is_ascii() && !s.title.starts_with("The Daily Show"), "{}", s.title);
    }

    #[test]
    fn a_seat_is_taken_once_and_left_again() {
        let mut s = debate();
        let [a, b] = [s.agents[0].name.clone(), s.agents[1].name.clone()];
        s.take_seat(a.clone(), true);
        s.take_seat(b.clone(), true);
        s.take_seat(a.clone(), true);
        assert_eq!(s.seats, [b.clone(), a.clone()], "taken again, it is not there twice");
        s.take_seat(b, false);
        assert_eq!(s.seats, [a]);
    }

    #[test]
    fn renaming_an_agent_moves_its_seat_and_a_removed_agent_loses_it() {
        let mut s = debate();
        let a = s.agents[0].name.clone();
        s.take_seat(a, true);
        s.rename_agent(0, "Ada".into());
        assert_eq!(s.agents[0].name, "Ada");
        assert_eq!(s.seats, ["Ada"]);
        s.rename_agent(99, "Nobody".into());
        assert_eq!(s.seats, ["Ada"], "no such agent: nothing changes");
        s.agents.remove(0);
        s.keep_seats();
        assert!(s.seats.is_empty(), "the seat of an agent that has gone goes with it");
    }

    #[test]
    fn the_selectors_seat_stays_only_while_the_method_is_the_selector() {
        let mut s = presets::find("town-hall-selector").expect("the town hall").scenario();
        let selector = crate::methods::selector::settings::SELECTOR.to_string();
        s.take_seat(selector.clone(), true);
        s.keep_seats();
        assert_eq!(s.seats, [selector]);
        s.method = debate().method;
        s.keep_seats();
        assert!(s.seats.is_empty());
    }

    #[test]
    fn descriptions_go_to_the_agents_they_name_and_a_missing_one_keeps_its_own() {
        let mut s = crate::presets::find("rail-debate").unwrap().scenario();
        assert!(s.opening.describe_characters);
        s.use_descriptions(&[(s.agents[0].name.clone(), Err("refused".into()))]);
        assert!(s.opening.describe_characters, "nothing written, nothing turned off");
        let before: Vec<String> = s.agents.iter().map(|a| a.description.clone()).collect();
        let changed = s.use_descriptions(&[
            (s.agents[2].name.clone(), Ok("A senator who reads every bill.".into())),
            (s.agents[0].name.clone(), Err("refused".into())),
            ("Nobody of this cast".into(), Ok("ignored".into())),
        ]);
        assert_eq!(changed, 1);
        assert!(!s.opening.describe_characters, "a run uses them rather than writing its own");
        assert_eq!(s.agents[2].description, "A senator who reads every bill.");
        assert_eq!(s.agents[0].description, before[0]);
        assert_eq!(s.agents[1].description, before[1]);
        let again =
            s.use_descriptions(&[(s.agents[2].name.clone(), Ok("A senator who reads every bill.".into()))]);
        assert_eq!(again, 0, "the same text changes nothing");
    }
}
