//! How the demo model reads what it is given in words: the topic a teacher typed, the words of
//! the last message worth answering, and which side a remark from outside the cast leans to.
//!
//! A topic enters the demo's sentences only in a form it has checked: a short noun phrase read
//! whole ("high-speed rail"), a motion's own clause ("This House would ban homework" → "I would
//! ban homework"), or the two options of an either/or question, each as the topic wrote it.
//! Anything else is quoted whole, once, and then called "this motion" or "the proposal"; it is
//! never cut into pieces. What the speeches talk about comes from the people and things the topic
//! names (parents, pupils, companies, a city), so two topics make two debates.

/// A topic as the demo's sentences use it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Topic {
    /// The topic as typed, trimmed, without a statement's closing full stop.
    pub(crate) whole: String,
    /// How it may enter a sentence.
    pub(crate) form: Form,
    /// Written in Chinese (or another script the English reader cannot place in a sentence).
    pub(crate) foreign: bool,
    /// War, illness, loss: no cheerful lines.
    pub(crate) serious: bool,
    /// War in particular: the sober lines about lives and peace fit it, not a loss at home.
    pub(crate) war: bool,
    /// What kind of thing is argued over, which decides whom a speech names when the topic
    /// names no one.
    pub(crate) kind: Kind,
    /// The people and things the topic names, in the order it names them.
    pub(crate) named: Vec<Named>,
}

/// How a topic may enter a sentence.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Form {
    /// A noun phrase read whole, said mid-sentence as written ("AI in schools").
    Phrase(String),
    /// A motion and its own clause ("This House believes that" + "billionaires should not
    /// exist"; "Whether" + "zoos do more good than harm"; "本院认为" + "…").
    Motion(Lead, String),
    /// Two options, each as the topic wrote it, when the demo found both whole; else the topic
    /// is quoted and they are "the first option" and "the second option".
    Either(Option<(String, String)>),
    /// A question answered yes or no ("Should schools ...?"): quoted whole.
    YesNo,
    /// A question with another kind of answer ("How should we ...?", a list of options).
    Open,
    /// A statement, a title, anything else: quoted whole.
    Statement,
}

/// The verb a motion is put with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Lead {
    Would,
    Believe,
    Regret,
    Support,
    Oppose,
}

/// The kinds of topic whose claims differ: a school's rules and days (pupils, teachers), public
/// money and works (taxes, building), and anything else.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    School,
    Public,
    General,
}

/// Someone a topic names, in the words each language's speeches use for them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Named {
    pub(crate) en: &'static str,
    pub(crate) zh: &'static str,
}

/// Those a topic more often asks to act or to pay (companies, the very rich) than to benefit:
/// the claims about costs name them, the claims about gains name the others.
const ACTORS: [&str; 10] = [
    "companies",
    "businesses",
    "employers",
    "the people in charge",
    "the platforms",
    "the very rich",
    "homeowners",
    "schools",
    "universities",
    "zoo keepers",
];

impl Named {
    pub(crate) fn acts(&self) -> bool {
        ACTORS.contains(&self.en)
    }
}

/// The people (and the places and things that stand for people) a topic may name: the forms
/// an English topic writes, the words an English speech says, the forms a Chinese topic
/// writes, the words a Chinese speech says.
const PARTIES: &[(&str, &str, &str, &str)] = &[
    ("parent parents", "parents", "家长 父母", "家长"),
    ("pupil pupils schoolchildren", "pupils", "", "学生"),
    ("student students", "students", "大中小学生 中小学生 高中生 中学生 小学生 大学生 学生", "学生"),
    ("teacher teachers", "teachers", "老师 教师", "老师"),
    ("child children kid kids", "children", "孩子 儿童 小孩", "孩子"),
    ("teen teens teenager teenagers adolescents", "teenagers", "青少年", "青少年"),
    ("family families", "families", "家庭", "家庭"),
    ("company companies corporations", "companies", "公司", "公司"),
    ("business businesses firm firms", "businesses", "企业", "企业"),
    ("worker workers employee employees staff", "workers", "员工 工人 打工人", "员工"),
    ("employer employers", "employers", "雇主", "雇主"),
    ("city cities town towns", "people in the city", "城市 城里", "城里的人"),
    (
        "resident residents neighbours neighbors locals community communities",
        "local residents",
        "居民 邻居 社区",
        "居民",
    ),
    ("commuter commuters passenger passengers riders", "commuters", "乘客 通勤", "乘客"),
    ("driver drivers motorists", "drivers", "司机", "司机"),
    ("cyclist cyclists bike bikes bicycles", "cyclists", "单车 自行车", "骑车的人"),
    ("taxpayer taxpayers tax taxes", "taxpayers", "纳税人 税", "纳税人"),
    ("voter voters citizen citizens", "citizens", "选民 公民", "公民"),
    ("government governments council councils district", "the people in charge", "政府", "政府"),
    ("patient patients", "patients", "病人 患者", "病人"),
    ("doctor doctors nurse nurses hospital hospitals", "doctors and nurses", "医生 护士 医院", "医生和护士"),
    ("farmer farmers farm farms", "farmers", "农民", "农民"),
    ("animal animals wildlife species", "the animals", "动物", "动物"),
    ("zoo zoos", "zoo keepers", "动物园", "动物园的工作人员"),
    ("elderly pensioners retirees", "older people", "老人 老年人", "老人"),
    ("consumer consumers shoppers customers buyers", "customers", "消费者 顾客", "消费者"),
    ("user users", "users", "用户 网民", "用户"),
    ("platform platforms", "the platforms", "平台", "平台"),
    ("billionaire billionaires millionaires rich wealthy", "the very rich", "富人 富豪 亿万富翁", "富人"),
    ("athlete athletes player players", "athletes", "运动员", "运动员"),
    ("artist artists musicians writers", "artists", "艺术家", "艺术家"),
    ("police officers", "the police", "警察", "警察"),
    ("immigrant immigrants migrants", "migrants", "移民", "移民"),
    ("refugee refugees", "refugees", "难民", "难民"),
    ("tenant tenants renters", "renters", "租房", "租房的人"),
    ("homeowner homeowners landlord landlords", "homeowners", "房东 业主", "业主"),
    ("tourist tourists visitors", "visitors", "游客", "游客"),
    ("school schools", "schools", "学校 校园", "学校"),
    ("university universities college colleges", "universities", "大学", "大学"),
    ("scientist scientists researchers", "researchers", "科学家 研究人员", "研究人员"),
    ("woman women girls", "women and girls", "女性 女生", "女性"),
    ("soldier soldiers troops", "soldiers", "士兵 军人", "士兵"),
    ("civilian civilians", "civilians", "平民", "平民"),
];

/// Whom a speech names when the topic names no one, by kind (English, Chinese).
const DEFAULT_SCHOOL: [Named; 3] = [
    Named { en: "pupils", zh: "学生" },
    Named { en: "teachers", zh: "老师" },
    Named { en: "families", zh: "家长" },
];
const DEFAULT_PUBLIC: [Named; 3] = [
    Named { en: "taxpayers", zh: "纳税人" },
    Named { en: "the people who would use it", zh: "普通市民" },
    Named { en: "local residents", zh: "居民" },
];
const DEFAULT_GENERAL: [Named; 3] = [
    Named { en: "ordinary people", zh: "普通人" },
    Named { en: "families", zh: "家庭" },
    Named { en: "young people", zh: "年轻人" },
];
const DEFAULT_WAR: [Named; 3] = [
    Named { en: "civilians", zh: "平民" },
    Named { en: "soldiers' families", zh: "士兵的家人" },
    Named { en: "people in danger", zh: "身处危险的人" },
];
const DEFAULT_CARE: [Named; 3] = [
    Named { en: "the people affected", zh: "受影响的人" },
    Named { en: "their families", zh: "他们的家人" },
    Named { en: "carers", zh: "照顾他们的人" },
];

/// Words of a school's life.
const SCHOOL: &str = "school schools class classes classroom homework pupil pupils student students teacher teachers uniform uniforms exam exams lesson lessons timetable coursework primary playground 学校 学生 老师 作业 考试 校服 课堂 补习 高中 初中 小学 校园";
/// Words of public money and works.
const PUBLIC: &str = "rail railway railways train trains tax taxes taxed toll tolls fare fares wage wages budget budgets fund funding jobs economy infrastructure energy plant plants coal housing road roads bridge bridges transport spending money cost costs subsidy subsidies airport tracks metro 地铁 铁路 高铁 税 预算 公交 交通 住房 能源 工资";

/// Words that open a yes/no question or join a subject to its verb.
const MODALS: &str = "should must can could would will shall do does did may might ought don't doesn't can't won't shouldn't wouldn't";
/// Forms of "to be" and "to have", which open a question as an auxiliary does.
const BE: &str = "is are was were has have be been being am";
/// Words that open a question whose answer is not yes or no.
const WH: &str = "what why how who which when where whose whom";
/// Words that open a clause: a phrase with one of them is a clause, not a noun phrase.
const CLAUSE: &str = "that which who whom whose where when if because while it we you they i he she there";
/// Words a noun phrase may hold after a plural ("phones in class"); after another word, a
/// plural is more likely a verb's subject ("phones distract pupils").
const LINKS: &str =
    "in of for on at with without versus vs and or from by to under over after before during across";
/// Verbs in their plain form, which open an option ("raise taxes or cut spending") or mark
/// where one starts ("learn coding or a second language").
const VERBS: &str = "ban allow send move build replace require make let give pay adopt fund cut raise lower keep stop start end spend tax invest join leave use teach learn close open limit restrict regulate accept reject support be have go switch change introduce abolish provide offer hire grow protect legalize legalise outlaw expand reduce increase sell buy drop get put run lift scrap phase shorten extend lengthen forbid permit mandate prohibit subsidize subsidise rebuild return prioritise prioritize prefer choose favour favor pick back spend study live work travel play read watch eat drive take need want";
/// Words that mark where an option starts, besides the verbs.
const BOUNDS: &str =
    "to in on at for with between either than about into from by better worse rather more less";
/// Words that start a noun phrase, as "the" does.
const DETERMINERS: &str =
    "the a an more less fewer some any all our their its his her my your this that these those";
/// Words common enough that a capital on them only marks the start of a sentence.
const COMMON: &str = "the a an all every some more most many each both our their this that these those free public online social electric high low school space nuclear renewable artificial remote digital compulsory mandatory universal national local fast new old young longer shorter smaller bigger green clean four-day three-day homework climate";

/// Words about harm, war and loss: a topic with one of them is spoken of soberly.
const SERIOUS: &str = "war wars weapon weapons arms military army bomb bombs missile missiles invasion genocide terror terrorism death deaths dying die cancer illness disease pandemic suicide grief loss abuse refugee refugees famine violence shooting shootings gun guns murder killing hostage hostages occupation 战争 武器 死亡 疾病 癌症 自杀 暴力 难民 饥荒";

/// Of those, the words of war.
const WAR: &str = "war wars weapon weapons arms military army bomb bombs missile missiles invasion genocide terror terrorism hostage hostages occupation troops soldiers ceasefire 战争 武器 军队 导弹";

/// Words that carry little of what a message is about.
const STOPWORDS: &str = "the a an and or but of to in on for with at by from is are was were be been it its this that these those i you we they he she me us them my your our their so as if not no do does did have has had will would should can could just very what who how why there here";

/// Where an option of a Chinese either/or question starts: after the last of these before "还是".
const ZH_BOUNDS: [&str; 26] = [
    "应该优先",
    "优先",
    "应该",
    "应当",
    "发展",
    "选择",
    "支持",
    "投资",
    "建设",
    "推广",
    "需要",
    "学习",
    "住在",
    "喜欢",
    "更需要",
    "鼓励",
    "提倡",
    "重视",
    "学",
    "选",
    "用",
    "是",
    "在",
    "去",
    "做",
    "要",
];
/// Verbs and question words: a Chinese topic with one of them is a clause, not a phrase.
const ZH_CLAUSE: [&str; 16] =
    ["应该", "应当", "是", "会", "能", "可以", "要", "让", "把", "被", "该", "不", "没", "吗", "呢", "还是"];
/// Words that open a Chinese question whose answer is not yes or no.
const ZH_WH: [&str; 8] = ["为什么", "怎么", "如何", "什么", "哪", "谁", "多少", "怎样"];

/// What separates words: any ASCII character but a letter, a digit, a hyphen or an apostrophe.
/// Other characters (accented letters, other scripts) count as letters, so the browser build
/// carries no Unicode tables for this.
fn separator(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_alphanumeric() && c != '-' && c != '\''
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

/// A word as the lists hold it: lowercase, without the punctuation around it.
fn bare(w: &str) -> String {
    w.trim_matches(|c: char| separator(c) || c == '\'').to_ascii_lowercase()
}

#[inline(never)]
fn is_word(w: &str, list: &str) -> bool {
    listed(list, &bare(w))
}

/// `word` with a lowercase first letter when its capital only marks the start of the topic: a
/// common word, a plural, or a word built like a common noun ("Homework", "High-speed",
/// "Uniforms"). A name or an acronym ("Britain", "AI", "NASA") keeps its capital.
fn unstarted(word: &str) -> String {
    let lower = bare(word);
    let inner_capital = word.chars().skip(1).any(|c| c.is_ascii_uppercase());
    let common = listed(COMMON, &lower)
        || listed(STOPWORDS, &lower)
        || word.contains('-')
        || [
            "s", "ing", "ion", "ity", "ment", "ness", "ism", "ence", "ance", "ship", "al", "ic", "ed",
            "work", "cy", "ty",
        ]
        .iter()
        .any(|end| lower.len() > end.len() + 2 && lower.ends_with(end));
    let mut out = word.to_string();
    if common && !inner_capital && out.is_char_boundary(1) {
        out[..1].make_ascii_lowercase();
    }
    out
}

impl Topic {
    /// Reads `topic`; `phrase`, when set and about the same thing (a word in common), is the
    /// noun phrase the scenario's author gives for it.
    pub(crate) fn read(topic: &str, phrase: &str) -> Topic {
        let text = topic.trim();
        let whole = match text.strip_suffix('.') {
            Some(t) if !t.ends_with('.') => t.trim_end().to_string(),
            _ => text.to_string(),
        };
        let foreign = other_script(text);
        let has = |list: &str| {
            if foreign {
                list.split(' ').any(|w| !w.is_ascii() && text.contains(w))
                    || text.split(separator).any(|w| listed(list, &w.to_ascii_lowercase()))
            } else {
                text.split(separator).any(|w| listed(list, &w.to_ascii_lowercase()))
            }
        };
        let (serious, war) = (has(SERIOUS) || has(WAR), has(WAR));
        let kind = if has(SCHOOL) {
            Kind::School
        } else if has(PUBLIC) {
            Kind::Public
        } else {
            Kind::General
        };
        let mut form =
            if text.chars().any(crate::text::unspaced) { read_unspaced(&whole) } else { read_spaced(&whole) };
        let own = phrase.trim();
        // The scenario's phrase is about this topic when it shares two words with it (one when
        // it has only one), or, in Chinese, three characters in a row: a single shared word
        // ("school") is another topic.
        let shares = |a: &str, b: &str| {
            let (mine, theirs) = (content_words(a), content_words(b));
            let shared = mine.iter().filter(|w| theirs.contains(w)).count();
            (shared >= 2 || (shared == 1 && mine.len() == 1))
                || a.chars().collect::<Vec<_>>().windows(3).any(|w| {
                    w.iter().all(|c| crate::text::unspaced(*c)) && b.contains(&w.iter().collect::<String>())
                })
        };
        if !own.is_empty() && shares(own, text) && !matches!(form, Form::Either(_)) {
            form = Form::Phrase(own.to_string());
        }
        Topic { whole, form, foreign, serious, war, kind, named: named_in(text) }
    }

    /// Those a claim about gains names: the people the topic names but those it asks to act,
    /// then those its kind suggests.
    pub(crate) fn gainers(&self) -> Vec<Named> {
        self.parties().into_iter().filter(|p| !p.acts()).collect()
    }

    /// Those a claim about costs names: those the topic asks to act, else everyone it names.
    pub(crate) fn payers(&self) -> Vec<Named> {
        let actors: Vec<Named> = self.named.iter().copied().filter(Named::acts).collect();
        if actors.is_empty() {
            self.parties()
        } else {
            actors
        }
    }

    /// The people a speech names: those the topic names, then those its kind suggests.
    pub(crate) fn parties(&self) -> Vec<Named> {
        let defaults: &[Named] = match (self.serious, self.war, self.kind) {
            (true, true, _) => &DEFAULT_WAR,
            (true, false, _) => &DEFAULT_CARE,
            (false, _, Kind::School) => &DEFAULT_SCHOOL,
            (false, _, Kind::Public) => &DEFAULT_PUBLIC,
            (false, _, Kind::General) => &DEFAULT_GENERAL,
        };
        let mut out = self.named.clone();
        for d in defaults {
            if out.iter().filter(|n| !n.acts()).count() >= 3 {
                break;
            }
            if !out.iter().any(|n| n.en == d.en || n.zh == d.zh) {
                out.push(*d);
            }
        }
        out
    }
}

/// The people `text` names, each once, in the order it names them.
fn named_in(text: &str) -> Vec<Named> {
    let mut found: Vec<(usize, Named)> = Vec::new();
    let lower = text.to_ascii_lowercase();
    for (en_forms, en, zh_forms, zh) in PARTIES {
        let at_en = lower
            .split(separator)
            .scan(0usize, |i, w| {
                *i += 1;
                Some((*i, w))
            })
            .find(|(_, w)| listed(en_forms, w))
            .map(|(i, _)| i * 1000);
        let at_zh = zh_forms.split(' ').filter(|f| !f.is_empty()).filter_map(|f| text.find(f)).min();
        // A Chinese topic's own word for them ("高中生" for "学生") is said as written, where it
        // names the same kind of people, as its last character tells (not "单车" for "骑车的人").
        let kind = zh.chars().last().unwrap_or(' ');
        let zh_said = zh_forms
            .split(' ')
            .filter(|f| !f.is_empty() && text.contains(*f) && f.ends_with(kind))
            .max_by_key(|f| f.len())
            .unwrap_or(zh);
        if let Some(at) = at_en.or(at_zh) {
            let named = Named { en, zh: zh_said };
            if !found.iter().any(|(_, n)| n.en == named.en) {
                found.push((at, named));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, n)| n).collect()
}

/// The form of a topic written with spaces between its words.
fn read_spaced(whole: &str) -> Form {
    let question = whole.ends_with('?') || whole.starts_with('¿');
    let body = whole.trim_start_matches('¿').trim_end_matches(['?', '!', '.']).trim_end();
    let words: Vec<&str> = body.split_whitespace().collect();
    let Some(first) = words.first() else { return Form::Statement };
    let lower = body.to_ascii_lowercase();
    if other_script(body) {
        return if question { Form::Open } else { Form::Statement };
    }
    // A debating club's motion: its clause is said as written.
    let motions: [(&str, Lead); 13] = [
        ("this house would ", Lead::Would),
        ("this house will ", Lead::Would),
        ("thw ", Lead::Would),
        ("this house believes that ", Lead::Believe),
        ("this house believes ", Lead::Believe),
        ("thbt ", Lead::Believe),
        ("this house regrets ", Lead::Regret),
        ("thr ", Lead::Regret),
        ("this house supports ", Lead::Support),
        ("ths ", Lead::Support),
        ("this house opposes ", Lead::Oppose),
        ("tho ", Lead::Oppose),
        ("whether ", Lead::Believe),
    ];
    for (lead_words, lead) in motions {
        if lower.starts_with(lead_words) && !question {
            let mut clause = body[lead_words.len()..].trim();
            if lead_words == "whether " {
                for tail in [" or not", ", or not"] {
                    if clause.to_ascii_lowercase().ends_with(tail) {
                        clause = clause[..clause.len() - tail.len()].trim_end();
                    }
                }
                let words: Vec<&str> = clause.split_whitespace().collect();
                if let Some(either) = either_or(&words) {
                    return either;
                }
            }
            let clause_words = clause.split_whitespace().count();
            if (1..=40).contains(&clause_words) && !clause.contains(['?', '“', '"']) {
                return Form::Motion(lead, clause.to_string());
            }
            return Form::Statement;
        }
    }
    if let Some(either) = either_or(&words) {
        return either;
    }
    let opener = bare(first);
    if question {
        // "Which is better: ...?", "How should we ...?" and a list of options have no yes or no.
        let list = body.matches(',').count() >= 2;
        return if listed(WH, &opener) || list || !(listed(MODALS, &opener) || listed(BE, &opener)) {
            Form::Open
        } else {
            Form::YesNo
        };
    }
    if let Some(phrase) = noun_phrase(&words) {
        return Form::Phrase(phrase);
    }
    Form::Statement
}

/// `words` as a noun phrase to say mid-sentence, when they read as one whole: few words, no
/// verb the demo knows, no clause, no sentence punctuation.
fn noun_phrase(words: &[&str]) -> Option<String> {
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    let joined = words.join(" ");
    if joined.contains([':', ';', '.', '!', '?', '(', '"', '“', '—']) || joined.contains(" - ") {
        return None;
    }
    if is_word(words[0], "to") {
        return None;
    }
    for (i, w) in words.iter().enumerate() {
        let b = bare(w);
        if listed(MODALS, &b) || listed(BE, &b) || listed(WH, &b) || listed(CLAUSE, &b) || listed(VERBS, &b) {
            return None;
        }
        // "Phones distract pupils", "AI threatens jobs": a word in -s followed by one that no
        // noun phrase would put there is a verb or its subject.
        let plural =
            b.len() > 3 && b.ends_with('s') && !b.ends_with("ss") && !b.ends_with("us") && !b.ends_with("is");
        if plural && !w.ends_with(',') {
            if let Some(next) = words.get(i + 1) {
                if !is_word(next, LINKS) && !next.starts_with(|c: char| c.is_ascii_uppercase()) {
                    return None;
                }
            }
        }
        // A past participle before a determiner is a clause ("parents banned the phones").
        if b.len() > 4 && b.ends_with("ed") && words.get(i + 1).is_some_and(|n| is_word(n, DETERMINERS)) {
            return None;
        }
    }
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out[0] = unstarted(&out[0]);
    Some(out.join(" "))
}

/// The two options of an either/or topic ("Should cities fund the metro or shared bikes?"),
/// each whole as written, when the demo can tell where each starts and ends; `Form::Either(None)`
/// when it cannot; None when the topic is not an either/or one.
fn either_or(words: &[&str]) -> Option<Form> {
    let at = words.iter().rposition(|w| is_word(w, "or") && !w.ends_with(','))?;
    if at == 0 || at + 1 >= words.len() {
        return None;
    }
    // "whether or not", "... or not": no second option.
    if is_word(words[at + 1], "not") {
        return None;
    }
    // The second option runs to the end, or to a colon, comma or semicolon.
    let mut b: Vec<&str> = Vec::new();
    for w in &words[at + 1..] {
        let cut = w.ends_with([',', ':', ';']);
        b.push(w.trim_end_matches([',', ':', ';']));
        if cut {
            break;
        }
    }
    let b_bad = b.is_empty()
        || b.len() > 6
        || b.iter().any(|w| is_word(w, MODALS) || is_word(w, BE) || is_word(w, WH) || is_word(w, CLAUSE))
        || b.iter().skip(1).any(|w| is_word(w, DETERMINERS));
    if b_bad {
        // "... keep elephants or tigers be closed?": the "or" is inside the subject, not a choice.
        return (b.len() <= 6 && b.iter().all(|w| !is_word(w, MODALS) && !is_word(w, BE)))
            .then_some(Form::Either(None));
    }
    // The first option: after the last comma, colon or semicolon before the "or".
    let from = words[..at].iter().rposition(|w| w.ends_with([',', ':', ';'])).map_or(0, |i| i + 1);
    let listed_before = from > 0 && words[from - 1].ends_with(',');
    if listed_before {
        // "French, Spanish or Mandarin": more than two options.
        return Some(Form::Open);
    }
    let seg = &words[from..at];
    let class = |w: &str| {
        if is_word(w, VERBS) {
            0
        } else if is_word(w, DETERMINERS) {
            1
        } else {
            2
        }
    };
    let b_class = class(b[0]);
    // Parallel options start with the same word ("more roads or more bike lanes", "by train or
    // by bus"): the first starts where that word last comes.
    let parallel = seg.iter().rposition(|w| bare(w) == bare(b[0])).filter(|&i| seg.len() - i <= 6);
    let a_start = parallel.or_else(|| {
        let good = |len: usize| {
            let start = seg.len() - len;
            let boundary = start == 0
                || is_word(seg[start - 1], VERBS)
                || is_word(seg[start - 1], BOUNDS)
                || is_word(seg[start - 1], BE)
                || is_word(seg[start - 1], MODALS);
            let inner_ok = seg[start..]
                .iter()
                .all(|w| !is_word(w, MODALS) && !is_word(w, BE) && !is_word(w, WH) && !is_word(w, CLAUSE));
            boundary && inner_ok
        };
        let lens: Vec<usize> = (1..=seg.len().min(6)).filter(|&l| good(l)).collect();
        // An option that starts with a verb needs one that does too; otherwise the shortest.
        let verb_first = |l: &usize| class(seg[seg.len() - l]) == 0;
        if b_class == 0 { lens.iter().copied().find(verb_first) } else { lens.first().copied() }
            .map(|l| seg.len() - l)
    });
    let Some(start) = a_start else { return Some(Form::Either(None)) };
    let mut a: Vec<String> = seg[start..].iter().map(|w| w.to_string()).collect();
    let mut b: Vec<String> = b.iter().map(|w| w.to_string()).collect();
    // A shared preposition ("by train or by bus") is said once, by the sentence around them.
    if a.len() > 1
        && b.len() > 1
        && a[0].eq_ignore_ascii_case(&b[0])
        && is_word(&a[0], BOUNDS)
        && !is_word(&a[0], DETERMINERS)
    {
        a.remove(0);
        b.remove(0);
    }
    if start + from == 0 && b[0].starts_with(|c: char| c.is_ascii_lowercase()) {
        a[0] = unstarted(&a[0]);
    }
    Some(Form::Either(Some((a.join(" "), b.join(" ")))))
}

/// The form of a topic written without spaces (Chinese).
fn read_unspaced(whole: &str) -> Form {
    let body = whole.trim_end_matches(['？', '?', '。', '.', '！', '!']).trim_end();
    let question = whole.ends_with(['？', '?']) || body.ends_with(['吗', '呢']);
    let motions: [(&str, Lead); 5] = [
        ("本院认为", Lead::Believe),
        ("本院支持", Lead::Support),
        ("本院反对", Lead::Oppose),
        ("本院后悔", Lead::Regret),
        ("本院会", Lead::Would),
    ];
    for (lead_words, lead) in motions {
        if let Some(clause) = body.strip_prefix(lead_words) {
            let clause = clause.trim_start_matches(['，', ',', '：', ':']).trim();
            if !clause.is_empty() && !clause.contains(['“', '"', '？']) {
                return Form::Motion(lead, clause.to_string());
            }
            return Form::Statement;
        }
    }
    if let Some(at) = body.rfind("还是") {
        let (before, after) = (&body[..at], &body[at + "还是".len()..]);
        let mut b = after.trim_end_matches('呢').to_string();
        let mut good_tail = false;
        for tail in ["更好", "好"] {
            if let Some(rest) = b.strip_suffix(tail) {
                b = rest.to_string();
                good_tail = true;
                break;
            }
        }
        let before = before.trim_end_matches(['，', ',']);
        let b_head: String = b.chars().take(2).collect();
        let a = if b_head.chars().count() == 2 && before.contains(&b_head) {
            before.rfind(&b_head).map(|i| &before[i..])
        } else {
            ZH_BOUNDS
                .iter()
                .filter_map(|m| before.rfind(m).map(|i| i + m.len()))
                .max()
                .map(|i| &before[i..])
                .or_else(|| (before.chars().count() <= 8).then_some(before))
        };
        let mut a = a.unwrap_or("").trim().to_string();
        if good_tail {
            a = a.strip_suffix('好').map(str::to_string).unwrap_or(a);
        }
        let fits = |s: &str| (1..=12).contains(&s.chars().count()) && !s.contains(['，', ',', '“', '”']);
        return Form::Either((fits(&a) && fits(&b)).then_some((a, b)));
    }
    if question {
        return if ZH_WH.iter().any(|w| body.contains(w)) { Form::Open } else { Form::YesNo };
    }
    if body.chars().count() <= 10
        && !ZH_CLAUSE.iter().any(|w| body.contains(w))
        && !body.contains(['，', ',', '：', '；', '、'])
    {
        return Form::Phrase(body.to_string());
    }
    Form::Statement
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
        // The clause whole, or not at all: a clause cut anywhere says something its speaker did
        // not ("one way" of "one way or another", "Paper books may sound easier" of "..., but
        // e-readers would last longer", "The science museum" of "The science museum and the zoo
        // would each help").
        if words.len() > 2 * most {
            return;
        }
        let phrase = words.join(" ");
        let mut phrase = phrase.trim_end_matches([',', ':', ';']).to_string();
        if end == '?' && phrase.split_whitespace().count() == words.len() {
            phrase.push('?');
        }
        if best.as_ref().is_none_or(|(s, _)| score >= *s) {
            best = Some((score, phrase));
        }
    };
    for c in plain.chars() {
        if ".!?;:—".contains(c) {
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
    const DOUBT: &str = "pays pay cost costs expensive afford fare fares price prices risk risks why doubt wrong never against stop waste fail fails problem worse dangerous harm no";
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

    fn form(topic: &str) -> Form {
        Topic::read(topic, "").form
    }

    fn either(a: &str, b: &str) -> Form {
        Form::Either(Some((a.into(), b.into())))
    }

    #[test]
    fn a_topic_is_read_as_a_form_it_can_say_whole() {
        assert_eq!(
            form("transcontinental high speed rail"),
            Form::Phrase("transcontinental high speed rail".into())
        );
        assert_eq!(form("High-speed rail"), Form::Phrase("high-speed rail".into()));
        assert_eq!(form("AI in schools"), Form::Phrase("AI in schools".into()));
        assert_eq!(form("Britain and the EU"), Form::Phrase("Britain and the EU".into()));
        // A clause is not a noun phrase, however short.
        assert_eq!(form("Phones distract pupils"), Form::Statement);
        assert_eq!(form("Homework should be banned."), Form::Statement);
        assert_eq!(form("Should our school ban phones in class?"), Form::YesNo);
        assert_eq!(form("Is it time to raise the minimum wage?"), Form::YesNo);
        assert_eq!(form("How should we fund the arts?"), Form::Open);
        assert_eq!(form("Should schools teach French, Spanish or Mandarin?"), Form::Open);
        assert_eq!(
            form("This House believes that billionaires should not exist"),
            Form::Motion(Lead::Believe, "billionaires should not exist".into())
        );
        assert_eq!(
            form("This House would ban private schools"),
            Form::Motion(Lead::Would, "ban private schools".into())
        );
        assert_eq!(
            form("Whether zoos that breed endangered animals do more good than harm"),
            Form::Motion(Lead::Believe, "zoos that breed endangered animals do more good than harm".into())
        );
        assert_eq!(form("本院认为网络游戏弊大于利"), Form::Motion(Lead::Believe, "网络游戏弊大于利".into()));
        assert_eq!(form("高中生是否应该被允许在校园里使用人工智能写作业？"), Form::YesNo);
        assert_eq!(form("高速铁路"), Form::Phrase("高速铁路".into()));
    }

    #[test]
    fn either_or_topics_give_two_whole_options_or_none() {
        assert_eq!(
            form("Should cities prioritise the metro or shared bikes?"),
            either("the metro", "shared bikes")
        );
        assert_eq!(
            form("Is it better to live in the city or the countryside?"),
            either("the city", "the countryside")
        );
        assert_eq!(
            form("Should students learn coding or a second language?"),
            either("coding", "a second language")
        );
        assert_eq!(form("Cats or dogs?"), either("cats", "dogs"));
        assert_eq!(form("Whether to raise taxes or cut spending"), either("raise taxes", "cut spending"));
        assert_eq!(
            form("Should the city build more roads or more bike lanes?"),
            either("more roads", "more bike lanes")
        );
        assert_eq!(
            form("Remote work or the office: which is better for young workers?"),
            either("remote work", "the office")
        );
        assert_eq!(form("Is nuclear power or solar the better bet?"), Form::Either(None));
        // An "or" inside the subject is no choice.
        assert_eq!(form("Should zoos that keep elephants or tigers be closed?"), Form::YesNo);
        assert_eq!(form("Should phones be banned or not?"), Form::YesNo);
        assert_eq!(form("城市应该优先发展地铁还是共享单车？"), either("地铁", "共享单车"));
        assert_eq!(form("住在城市好还是住在农村好？"), either("住在城市", "住在农村"));
        assert_eq!(form("人工智能是机遇还是威胁？"), either("机遇", "威胁"));
        assert_eq!(form("我们应该多读书还是多运动？"), either("多读书", "多运动"));
    }

    #[test]
    fn the_people_a_topic_names_are_what_its_speeches_name() {
        let t = Topic::read("Should schools replace homework with project days that parents can attend?", "");
        let named: Vec<&str> = t.named.iter().map(|n| n.en).collect();
        assert_eq!(named, ["schools", "parents"]);
        let t = Topic::read("高中生是否应该被允许在校园里使用人工智能写作业？", "");
        assert_eq!(t.named.first().map(|n| n.zh), Some("高中生"));
        // A topic naming no one is spoken of through those its kind suggests.
        assert_eq!(Topic::read("Longer summer holidays", "").parties().len(), 3);
        assert!(Topic::read("Should the US send weapons to Israel?", "").serious);
        assert!(!Topic::read("Should our school ban phones in class?", "").serious);
        // A scenario's own phrase is kept while it is about the topic.
        assert_eq!(
            Topic::read("Should the US send weapons to Israel?", "sending weapons to Israel").form,
            Form::Phrase("sending weapons to Israel".into())
        );
        assert_eq!(
            Topic::read("Should our school ban mobile phones?", "a four-day school week").form,
            Form::YesNo
        );
        assert_eq!(
            Topic::read("Should our school ban phones?", "sending weapons to Israel").form,
            Form::YesNo
        );
    }

    #[test]
    fn odd_topics_are_read_without_a_panic_and_said_whole() {
        let odd = [
            "",
            " ",
            "?",
            "？",
            "or",
            "or or",
            "A or",
            "or B",
            "This House would",
            "THW",
            "Whether",
            "Whether or not",
            "还是",
            "还是？",
            "本院认为",
            "本院认为？",
            "¿",
            "¿?",
            "...",
            "“”",
            "a, b, or c?",
            "🙂 or 🙃?",
            "Ünïcödé or ascii?",
            "İstanbul or Ankara?",
            "ß or ss",
            "x:y - z",
            "to",
            "To be or not to be?",
            "Whether to or not",
            "A, or B",
            "Should, or should not?",
            "你好 or hello?",
        ];
        for topic in odd {
            let t = Topic::read(topic, "");
            if let Form::Either(Some((a, b))) = &t.form {
                assert!(!a.is_empty() && !b.is_empty(), "{topic:?}: {a:?} / {b:?}");
            }
            if let Form::Phrase(p) | Form::Motion(_, p) = &t.form {
                assert!(!p.trim().is_empty(), "{topic:?}");
            }
            let _ = (t.parties(), t.gainers(), t.payers());
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
        assert!(lean("Will my bus fare go up?").unwrap() < 0.0);
        assert!(lean("Yes, it helps everyone.").unwrap() > 0.0);
        assert_eq!(lean("The moderator opens the debate."), None);
    }
}
