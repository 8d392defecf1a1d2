//! How the demo model reads what it is given in words: the topic a teacher typed (a phrase, a
//! statement, a question, in any language) turned into something a sentence can hold, whether a
//! subject is a serious one, the words of the last message worth answering, and which side a
//! remark from outside the cast leans to.

/// A topic as the demo's sentences use it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Topic {
    /// A noun phrase that fits mid-sentence ("banning phones in class", "high speed rail"), or
    /// a stand-in for one ("what is proposed") when the topic gives none.
    pub(crate) noun: String,
    /// The topic as a whole clause to end a sentence with, after a colon: "should our school ban
    /// phones in class?" (a question keeps its question mark; the first word is lowercased only
    /// where it is a common word).
    pub(crate) clause: String,
    /// Whether the topic is a question.
    pub(crate) question: bool,
    /// War, illness, loss: no cheerful lines.
    pub(crate) serious: bool,
    /// War in particular: the sober lines about lives and peace fit it, not a loss at home.
    pub(crate) war: bool,
    /// The noun phrase is plural ("school uniforms"): the verb after it agrees.
    pub(crate) plural: bool,
    /// What kind of thing is argued over, which decides the claims that fit it.
    pub(crate) kind: Kind,
}

/// The kinds of topic whose claims differ: a school's rules and days (pupils, teachers), public
/// money and works (jobs, taxes, building), and anything else.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    School,
    Public,
    General,
}

/// Words of a school's life.
const SCHOOL: &str = "school schools class classes classroom homework pupil pupils student students teacher teachers uniform uniforms exam exams lesson lessons timetable coursework primary playground";
/// Words of public money and works.
const PUBLIC: &str = "rail railway railways train trains tax taxes taxed toll tolls fare fares wage wages budget budgets fund funding jobs economy infrastructure energy plant plants coal housing road roads bridge bridges transport spending money cost costs subsidy subsidies airport tracks";

/// Words that start a yes/no question or join a subject to its verb.
const MODALS: &str = "should must can could would will shall do does did may might ought don't doesn't can't won't shouldn't wouldn't";
/// Words that join or open a clause: a subject that reaches one of them is cut short before it
/// ("Climate refugees and who should take them in" is about "climate refugees").
const JOINS: &str = "and or but who whom whose which that where when if because while";
/// Past participles that do not end in -ed or -en ("Should zoos be shut?").
const PARTICIPLES: &str = "built taught made cut paid kept sold held run done set put spent shut left lost sent bought brought taken given shown known";

/// Words that open a question whose answer is not yes or no.
const WH: &str = "what why how who which when where whose";
/// Forms of "to be" and "to have", which open a question as an auxiliary does.
const BE: &str = "is are was were has have";
/// Pronouns that open a subject ("should we ...").
const PRONOUNS: &str = "we you they i it";
/// Words common enough that a capital on them only marks the start of a sentence, besides the
/// `STOPWORDS`.
const COMMON: &str = "must shall may might ought which when where whose all every some his her because since although though while given unless once after before during despite instead many most more each both";

/// Words about harm, war and loss: a topic with one of them is spoken of soberly.
const SERIOUS: &str = "war wars weapon weapons arms military army bomb bombs missile missiles invasion genocide terror terrorism death deaths dying die cancer illness disease pandemic suicide grief loss abuse refugee refugees famine violence shooting shootings gun guns murder killing hostage hostages occupation";

/// Of those, the words of war.
const WAR: &str = "war wars weapon weapons arms military army bomb bombs missile missiles invasion genocide terror terrorism hostage hostages occupation troops soldiers ceasefire";

/// Words that carry little of what a message is about.
const STOPWORDS: &str = "the a an and or but of to in on for with at by from is are was were be been it its this that these those i you we they he she me us them my your our their so as if not no do does did have has had will would should can could just very what who how why there here";

/// Verbs a topic's proposal may start with, in their plain form.
const VERBS: &str = "ban allow send move build replace require make let give pay adopt fund cut raise lower keep stop start end spend tax invest join leave use teach learn close open limit restrict regulate accept reject support be have go switch change introduce abolish provide offer hire grow protect legalize outlaw expand reduce increase sell buy drop get put run lift scrap phase shorten extend lengthen forbid permit mandate prohibit subsidize rebuild return";

/// What separates words: any ASCII character but a letter or a digit. Other characters
/// (accented letters, other scripts) count as letters, so the browser build carries no Unicode
/// tables for this, and one function serves every split (one copy of the splitting code).
fn separator(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_alphanumeric()
}

/// Whether `text` has letters of a script other than Latin (Greek, Cyrillic, Arabic, Chinese,
/// Japanese, Korean and the rest), whose words the reader's English lists cannot place in a
/// sentence: such a topic is quoted whole. By code point ranges, so no Unicode tables.
pub fn other_script(text: &str) -> bool {
    text.chars().any(|c| {
        let c = c as u32;
        ((0x0370..=0x1FFF).contains(&c) && !(0x1E00..=0x1EFF).contains(&c))
            || (0x2E80..=0xD7FF).contains(&c)
            || (0xF900..=0xFAFF).contains(&c)
            || (0xFF00..=0xFFEF).contains(&c)
            || c >= 0x20000
    })
}

/// Whether `word` (lowercase) is one of the words of `list` (a space-separated list: one string
/// weighs less in the browser build than an array of them).
#[inline(never)]
fn listed(list: &str, word: &str) -> bool {
    list.split(' ').any(|w| w == word)
}

#[inline(never)]
fn is_word(w: &str, list: &str) -> bool {
    listed(list, w.to_ascii_lowercase().trim_matches(separator))
}

/// A word's -ing form ("ban" → "banning", "move" → "moving", "be" → "being").
fn gerund(verb: &str) -> String {
    let v = verb.to_ascii_lowercase();
    let chars: Vec<char> = v.chars().collect();
    let vowel = |c: char| "aeiou".contains(c);
    if v == "be" || v.ends_with("ee") {
        return format!("{v}ing");
    }
    if v.ends_with("ie") {
        return format!("{}ying", &v[..v.len() - 2]);
    }
    if v.ends_with('e') {
        return format!("{}ing", &v[..v.len() - 1]);
    }
    // Short verbs ending consonant, vowel, consonant double the last letter ("cut", "stop").
    let n = chars.len();
    if (n == 3 || ["stop", "drop", "plan", "scrap", "swap", "ship", "shop"].contains(&v.as_str()))
        && n >= 3
        && !vowel(chars[n - 1])
        && !"wxy".contains(chars[n - 1])
        && vowel(chars[n - 2])
        && !vowel(chars[n - 3])
    {
        return format!("{v}{}ing", chars[n - 1]);
    }
    format!("{v}ing")
}

/// `word` with a lowercase first letter when its capital only starts a sentence: a common word
/// ("Should", "The"), or any word when `force` says so (see `phrase_of`). Names and acronyms
/// ("AI", "NASA", "Britain") keep theirs.
#[inline(never)]
fn unstarted(word: &str, force: bool) -> String {
    let inner_capital = word.chars().skip(1).any(|c| c.is_ascii_uppercase());
    let mut out = word.to_string();
    if !inner_capital
        && (force || is_word(word, COMMON) || is_word(word, STOPWORDS))
        && out.is_char_boundary(1)
    {
        out[..1].make_ascii_lowercase();
    }
    out
}

impl Topic {
    /// Reads `topic`; `phrase`, when set and about the same thing (a word in common), is the
    /// noun phrase the scenario gives for it.
    pub(crate) fn read(topic: &str, phrase: &str) -> Topic {
        let text = topic.trim();
        let question = text.ends_with(['?', '？']) || text.starts_with('¿');
        let bare = text.trim_start_matches('¿').trim_end_matches(['?', '.', '!']).trim_end();
        let words: Vec<&str> = bare.split_whitespace().collect();
        let has = |list: &str| text.split(separator).any(|w| listed(list, &w.to_ascii_lowercase()));
        let (serious, war) = (has(SERIOUS) || has(WAR), has(WAR));
        let own = phrase.trim();
        let shares = |a: &str, b: &str| content_words(a).iter().any(|w| content_words(b).contains(w));
        let noun = if !own.is_empty() && shares(own, text) {
            Some(own.to_string())
        } else if other_script(text) {
            // Quoted whole, as a question's proposal or as a phrase: never cut into a sentence.
            Some(if question { format!("what “{text}” proposes") } else { format!("“{text}”") })
        } else {
            noun_phrase(&words, question)
        };
        let mut clause: Vec<String> = bare.split_whitespace().map(String::from).collect();
        if let Some(first) = clause.first_mut() {
            *first = unstarted(first, false);
        }
        let clause = format!(
            "{}{}{}",
            if text.starts_with('¿') { "¿" } else { "" },
            clause.join(" "),
            if question { "?" } else { "" }
        );
        // A topic in another script is said as written, in quotes.
        let clause = if other_script(text) { format!("“{text}”") } else { clause };
        let fallback = if question && words.first().is_some_and(|w| is_word(w, WH)) {
            "the answer we choose"
        } else {
            "what is proposed"
        };
        let plural = noun.as_deref().is_some_and(|n| {
            let (first, last) = (n.split(' ').next().unwrap_or(n), n.rsplit(' ').next().unwrap_or(n));
            !first.ends_with("ing")
                && !n.contains(" being ")
                && last.len() > 3
                && last.ends_with('s')
                && !last.ends_with("ss")
                && !last.ends_with("us")
                && !last.ends_with("is")
        });
        let kind = if has(SCHOOL) {
            Kind::School
        } else if has(PUBLIC) {
            Kind::Public
        } else {
            Kind::General
        };
        Topic { noun: noun.unwrap_or_else(|| fallback.into()), clause, question, serious, war, plural, kind }
    }

    /// `template` with the noun phrase for `{topic}`, its verb agreeing when the phrase is
    /// plural ("school uniforms are", not "is").
    pub(crate) fn fill(&self, template: &str) -> String {
        let mut out = template.replace("{topic}", &self.noun);
        if self.plural {
            for (one, many) in [
                ("is", "are"),
                ("has", "have"),
                ("was", "were"),
                ("needs", "need"),
                ("deserves", "deserve"),
                ("solves", "solve"),
                ("risks", "risk"),
                ("puts", "put"),
                ("keeps", "keep"),
                ("brings", "bring"),
                ("gives", "give"),
                ("makes", "make"),
                ("helps", "help"),
                ("takes", "take"),
                ("sounds", "sound"),
                ("lands", "land"),
                ("does", "do"),
            ] {
                out = out.replace(&format!("{} {one} ", self.noun), &format!("{} {many} ", self.noun));
            }
        }
        out
    }
}

/// A noun phrase for a topic's words, if there is a short one: the proposal after a modal as
/// an -ing phrase ("should our school ban phones" → "banning phones"), the subject before it
/// ("artificial intelligence should ..."), or the words themselves when few (not a question's).
fn noun_phrase(words: &[&str], question: bool) -> Option<String> {
    if words.is_empty() {
        return None;
    }
    let lower = |w: &&str| w.to_ascii_lowercase();
    let first = words[0].to_ascii_lowercase();
    // A question opened by a modal: the subject follows it ("Should the US send ...").
    let modal_at = if listed(MODALS, &first) {
        Some(0)
    } else {
        words.iter().position(|w| listed(MODALS, &lower(w)) || lower(w) == "needs").filter(|&i| i > 0)
    };
    if let Some(m) = modal_at {
        // The verb: the first known verb within three words after the modal (the subject
        // sits between when the modal opens a question).
        let from = m + 1;
        let verb = (from..words.len().min(from + 4))
            .find(|&i| is_word(words[i], VERBS) && (m > 0 || i > from || is_word(words[from], PRONOUNS)));
        if let Some(v) = verb {
            let rest = &words[v + 1..];
            // "Homework should be optional", "Should homework be optional?": the subject is
            // what the topic is about, so it stays ("making homework optional", "AI being
            // regulated").
            let subject = if m > 0 { &words[..m] } else { &words[from..v] };
            let subject = before_join(subject);
            let passive = rest.first().is_some_and(|w| {
                let w = w.to_ascii_lowercase();
                (w.len() > 3 && (w.ends_with("ed") || w.ends_with("en"))) || listed(PARTICIPLES, &w)
            });
            if words[v].eq_ignore_ascii_case("be")
                && (1..=4).contains(&subject.len())
                && (1..=5).contains(&rest.len())
                && !is_word(subject[0], PRONOUNS)
            {
                // The capital of a statement's first word only starts the sentence, as far as a
                // demo can tell ("Homework should be ..."); a name loses it too, rarer in a
                // classroom's motions than a common noun.
                let mut subject: Vec<String> = subject.iter().map(|w| w.to_string()).collect();
                subject[0] = unstarted(&subject[0], m > 0);
                let subject = subject.join(" ");
                let rest = rest.join(" ");
                return Some(if passive {
                    format!("{subject} being {rest}")
                } else {
                    format!("making {subject} {rest}")
                });
            }
            // "to": "needs to ban" reads as "banning".
            if rest.len() <= 6 && !(m == 0 && v == from && !is_word(words[from], PRONOUNS)) {
                return Some(gerund_phrase(words[v], rest));
            }
        }
        // The subject before the modal, up to a word that opens another clause.
        let subject = before_join(&words[..m]);
        if (1..=4).contains(&subject.len()) && !listed(WH, &first) && !is_word(subject[0], PRONOUNS) {
            return Some(phrase_of(subject));
        }
        return to_verb(words);
    }
    // "Is it time to raise the minimum wage?": the proposal after "to".
    if let Some(p) = to_verb(words) {
        return Some(p);
    }
    // "Electric cars: a blessing or a curse?": what comes before the colon or dash.
    if let Some(at) = words.iter().position(|w| w.ends_with(':') || *w == "-" || *w == "—") {
        let head: Vec<&str> = words[..=at]
            .iter()
            .map(|w| w.trim_end_matches(':'))
            .filter(|w| !w.is_empty() && *w != "-" && *w != "—")
            .collect();
        // A title ("The New Workout Trend: ...") is quoted, not said as a phrase.
        let title = head.iter().skip(1).any(|w| w.starts_with(|c: char| c.is_ascii_uppercase()));
        if (1..=5).contains(&head.len())
            && !title
            && !head.iter().any(|w| is_word(w, BE) || is_word(w, MODALS))
        {
            return Some(phrase_of(&head));
        }
        return None;
    }
    // A clause is not a noun phrase ("homework is banned in primary schools").
    if words.iter().skip(1).any(|w| is_word(w, BE) || is_word(w, MODALS)) {
        return None;
    }
    // A question's own words are not a noun phrase ("is it fair?", "¿deberían ...?").
    if question || listed(WH, &first) || listed(BE, &first) {
        return None;
    }
    if words.len() <= 6 {
        return Some(phrase_of(words));
    }
    // "Social media for children that nobody asked for": what the clause is about.
    let join = words.iter().position(|w| is_word(w, JOINS)).filter(|i| (2..=5).contains(i))?;
    let head: Vec<&str> = words[..join].iter().map(|w| w.trim_end_matches([',', ';'])).collect();
    Some(phrase_of(&head))
}

/// The proposal in "to <verb> ..." as an -ing phrase ("is it time to raise the minimum wage" →
/// "raising the minimum wage"), when it is short and nothing follows it but its object.
fn to_verb(words: &[&str]) -> Option<String> {
    let at = words.iter().position(|w| w.eq_ignore_ascii_case("to"))?;
    let verb = words.get(at + 1).filter(|v| is_word(v, VERBS))?;
    let rest = &words[at + 2..];
    if rest.len() > 6 || rest.iter().any(|w| is_word(w, JOINS) || is_word(w, MODALS)) {
        return None;
    }
    Some(gerund_phrase(verb, rest))
}

/// `verb` as its -ing form with its object `rest` ("ban", "phones in class" → "banning phones in
/// class").
fn gerund_phrase(verb: &str, rest: &[&str]) -> String {
    std::iter::once(gerund(verb)).chain(rest.iter().map(|w| w.to_string())).collect::<Vec<_>>().join(" ")
}

/// `words` up to the first that joins another clause to them (all of them when none does).
fn before_join<'a, 'b>(words: &'a [&'b str]) -> &'a [&'b str] {
    &words[..words.iter().position(|w| is_word(w, JOINS)).unwrap_or(words.len())]
}

/// `words` to be said mid-sentence: the first word's capital dropped where it only marks the
/// start ("High-speed rail"), a name's or an acronym's kept ("Britain", "AI").
fn phrase_of(words: &[&str]) -> String {
    let mut out = words.join(" ");
    if let Some(first) = words.first() {
        let next_lower = words.get(1).is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()));
        let lower = unstarted(first, next_lower);
        out.replace_range(..first.len(), &lower);
    }
    out
}

/// The words of `text` that say what it is about, lowercased.
#[inline(never)]
pub(crate) fn content_words(text: &str) -> Vec<String> {
    text.split(separator)
        .map(str::to_ascii_lowercase)
        .filter(|w| w.chars().count() > 2 && !listed(STOPWORDS, w))
        .collect()
}

/// The part of a message worth answering, a few words as the speaker said them: the clause with
/// the most to say (the last such), without gestures, quotes of others or a "Name:" in front. A question keeps
/// its question mark. None when the message says nothing of substance.
pub(crate) fn key_phrase(text: &str, speaker: &str, ignore: &[String], most: usize) -> Option<String> {
    // Their own words: not their gestures, nor what they quoted of someone else.
    let mut plain = String::new();
    let (mut in_gesture, mut in_quote) = (false, false);
    for c in text.chars() {
        match c {
            '*' => in_gesture = !in_gesture,
            '“' => in_quote = true,
            '”' => in_quote = false,
            _ if !in_gesture && !in_quote => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.trim();
    let plain = plain.strip_prefix(&format!("{speaker}:")).unwrap_or(plain);
    let mut best: Option<(usize, String)> = None;
    let mut clause = String::new();
    let mut consider = |clause: &str, end: char| {
        let words: Vec<&str> = clause.split_whitespace().collect();
        // A question asks to be answered first.
        let score = content_words(clause).iter().filter(|w| !ignore.contains(w)).count()
            + 2 * usize::from(end == '?');
        if score < 2 {
            return;
        }
        // The whole clause when short, otherwise `most` words from the first of substance, not
        // ending on a small word.
        // A question is quoted from its start, a little longer.
        let most = if end == '?' { most + 4 } else { most };
        // A quote starts where a clause does, not on the word that joined it to the last.
        let start = words.iter().position(|w| !is_word(w, "and but or so then because")).unwrap_or(0);
        let words = &words[start..];
        // Whole, or up to where a second clause joins it ("... will create jobs" of "... will
        // create jobs and pay for itself"); a clause too long for either is not quoted: a cut
        // one says something its speaker did not.
        let phrase = if words.len() <= most + 3 {
            words.join(" ")
        } else {
            let join = (3..words.len()).find(|&i| is_word(words[i], "and but or while because"));
            match join {
                Some(i) if i <= most + 3 => words[..i].join(" "),
                _ if words.len() <= 2 * most => words.join(" "),
                _ => return,
            }
        };
        let mut phrase = phrase.trim_end_matches([',', ':', ';']).to_string();
        if end == '?' && phrase.split_whitespace().count() == words.len() {
            phrase.push('?');
        }
        if best.as_ref().is_none_or(|(s, _)| score >= *s) {
            best = Some((score, phrase));
        }
    };
    for c in plain.chars() {
        if ".!?;:—,".contains(c) {
            consider(&clause, c);
            clause.clear();
        } else {
            clause.push(c);
        }
    }
    consider(&clause, '.');
    best.map(|(_, p)| p)
}

/// Which side a remark leans to, from its words (-1 doubtful, +1 in favour), when it leans at
/// all: what a class's interjection or a seat's words say to the bidders.
pub(crate) fn lean(text: &str) -> Option<f64> {
    const DOUBT: &str = "pays pay cost costs expensive afford risk risks why doubt wrong never against stop waste fail fails problem worse dangerous harm no";
    const FAVOUR: &str =
        "yes great good support agree benefit benefits better need love right help helps works";
    let words: Vec<String> =
        text.split(separator).map(str::to_ascii_lowercase).filter(|w| !w.is_empty()).collect();
    let doubt = words.iter().filter(|w| listed(DOUBT, w)).count() as f64;
    let favour = words.iter().filter(|w| listed(FAVOUR, w)).count() as f64;
    (doubt + favour > 0.0).then(|| 0.8 * (favour - doubt) / (favour + doubt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_of_every_kind_read_as_parts_of_sentences() {
        let cases = [
            ("Should our school ban phones in class?", "banning phones in class", "should our school ban phones in class?"),
            ("Should the US send weapons to Israel?", "sending weapons to Israel", "should the US send weapons to Israel?"),
            ("transcontinental high speed rail", "transcontinental high speed rail", "transcontinental high speed rail"),
            ("High-speed rail", "high-speed rail", "High-speed rail"),
            ("Our school should ban phones in class", "banning phones in class", "our school should ban phones in class"),
            ("Artificial intelligence should be allowed to make moral decisions in situations where humans fail to agree.", "artificial intelligence", "Artificial intelligence should be allowed to make moral decisions in situations where humans fail to agree"),
            ("How should we fund the arts?", "funding the arts", "how should we fund the arts?"),
            ("What should we do about climate change?", "the answer we choose", "what should we do about climate change?"),
            ("Is social media harmful to teenagers?", "what is proposed", "is social media harmful to teenagers?"),
            ("¿Deberían las escuelas prohibir los móviles?", "what is proposed", "¿Deberían las escuelas prohibir los móviles?"),
            ("The New Workout Trend: Competitive Sitting - How Laziness Became the Next Fitness Craze", "what is proposed", "the New Workout Trend: Competitive Sitting - How Laziness Became the Next Fitness Craze"),
            ("Should we cut the school day?", "cutting the school day", "should we cut the school day?"),
            ("AI in schools", "AI in schools", "AI in schools"),
        ];
        for (topic, noun, clause) in cases {
            let t = Topic::read(topic, "");
            assert_eq!((t.noun.as_str(), t.clause.as_str()), (noun, clause), "{topic}");
        }
        assert!(Topic::read("Should the US send weapons to Israel?", "").serious);
        assert!(!Topic::read("Should our school ban phones in class?", "").serious);
        // A scenario's own phrase is kept while it is about the topic, and dropped once the topic
        // is another one.
        assert_eq!(
            Topic::read("Should the US send weapons to Israel?", "arming Israel").noun,
            "arming Israel"
        );
        assert_eq!(
            Topic::read("Should our school ban phones?", "sending weapons to Israel").noun,
            "banning phones"
        );
    }

    #[test]
    fn verbs_take_their_ing_forms() {
        for (v, g) in [
            ("ban", "banning"),
            ("move", "moving"),
            ("be", "being"),
            ("send", "sending"),
            ("cut", "cutting"),
            ("allow", "allowing"),
            ("tax", "taxing"),
            ("stop", "stopping"),
            ("open", "opening"),
            ("agree", "agreeing"),
        ] {
            assert_eq!(gerund(v), g);
        }
    }

    #[test]
    fn the_words_worth_answering_are_found() {
        assert_eq!(
            key_phrase("Who pays for the tracks?", "Audience member", &[], 6).as_deref(),
            Some("Who pays for the tracks?")
        );
        assert_eq!(
            key_phrase("*taps the podium* Let's be clear about who pays: high speed rail will bury taxpayers in debt.", "Elizabeth Warren", &[], 6).as_deref(),
            Some("high speed rail will bury taxpayers in debt")
        );
        assert_eq!(
            key_phrase("Kanye West: Real talk: the tracks are the future.", "Kanye West", &[], 6).as_deref(),
            Some("the tracks are the future")
        );
        assert_eq!(key_phrase("*nods*", "A", &[], 6), None);
        // Words that only frame an answer ("Donald Trump says") are not what is answered.
        let ignore = ["donald".to_string(), "trump".into(), "says".into(), "wrong".into()];
        assert_eq!(
            key_phrase(
                "Donald Trump says “the tracks”, and that is wrong: rail solves the wrong problem.",
                "Xi",
                &ignore,
                6
            )
            .as_deref(),
            Some("rail solves the wrong problem")
        );
        assert!(lean("Who pays for the tracks?").unwrap() < 0.0);
        assert!(lean("Yes, it helps everyone.").unwrap() > 0.0);
        assert_eq!(lean("The moderator opens the debate."), None);
    }
}
