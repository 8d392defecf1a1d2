//! Text helpers every layer may use (the provider client, links, the view): quoting input in a
//! message, and numbers written without float formatting. A leaf: it imports nothing of Agora.

/// At most `n` characters of `text` (with an ellipsis when cut), for quoting input in a message.
pub fn clip(text: &str, n: usize) -> String {
    let mut clipped: String = text.chars().take(n).collect();
    if clipped.len() < text.len() {
        clipped.push('…');
    }
    clipped
}

/// `x` with `decimals` digits after the point, by integer arithmetic (so the app needs no float
/// formatting code; `{:.1}` alone costs kilobytes of wasm).
pub fn fixed(x: f64, decimals: u32) -> String {
    if !x.is_finite() {
        return "0".into();
    }
    let scale = 10i64.pow(decimals.min(9));
    let n = (x * scale as f64).round() as i64;
    let sign = if n < 0 { "-" } else { "" };
    let (whole, frac) = (n.abs() / scale, n.abs() % scale);
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac:0width$}", width = decimals as usize)
    }
}

/// Sorts `items` so that none comes before one it should follow (`before(a, b)`: a goes first),
/// keeping ties in their order. An insertion sort, for the short lists the page sorts (agents,
/// model names): each element type sorted with the standard library's stable sort adds about
/// 1.5 KB gzipped of sorting code to the page.
pub fn sort_small<T>(items: &mut [T], before: impl Fn(&T, &T) -> bool) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && before(&items[j], &items[j - 1]) {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Sorts `items` as the standard library's stable sort does (`before(a, b)`: a goes first, ties
/// kept in their order), by merging halves: for lists too long for [`sort_small`]. One small
/// merge per element type instead of the standard sort's quicksort, drift sort and small-sort
/// networks, which weigh about 4 KB of wasm per type sorted (13 types on the page).
pub fn sort_stable<T: Clone>(items: &mut [T], before: impl Fn(&T, &T) -> bool) {
    merge_sort(items, &before);
}

fn merge_sort<T: Clone>(items: &mut [T], before: &dyn Fn(&T, &T) -> bool) {
    if items.len() <= 12 {
        return sort_small(items, before);
    }
    let mid = items.len() / 2;
    merge_sort(&mut items[..mid], before);
    merge_sort(&mut items[mid..], before);
    let mut merged = Vec::with_capacity(items.len());
    let (mut i, mut j) = (0, mid);
    while i < mid && j < items.len() {
        // The right half's item goes first only when it must: ties keep the left one first.
        if before(&items[j], &items[i]) {
            merged.push(items[j].clone());
            j += 1;
        } else {
            merged.push(items[i].clone());
            i += 1;
        }
    }
    merged.extend_from_slice(&items[i..mid]);
    merged.extend_from_slice(&items[j..]);
    items.clone_from_slice(&merged);
}

/// The language a character's script is written in, for the scripts written without spaces
/// between words: kana is Japanese, Hangul (syllables and jamo) Korean, Han characters Chinese.
/// By code point ranges, so no Unicode tables.
fn wide_script(c: char) -> Option<&'static str> {
    let c = c as u32;
    if (0x3040..=0x30FF).contains(&c) {
        Some("ja")
    } else if (0xAC00..=0xD7AF).contains(&c) || (0x1100..=0x11FF).contains(&c) {
        Some("ko")
    } else if (0x4E00..=0x9FFF).contains(&c) || (0x3400..=0x4DBF).contains(&c) {
        Some("zh")
    } else {
        None
    }
}

/// The language a piece of text is written in, as a `lang` attribute names it, when its script
/// says so: any kana makes it Japanese, else any Hangul Korean, else Han characters Chinese;
/// `None` for text in Latin letters (the page's own language).
pub fn script_lang(text: &str) -> Option<&'static str> {
    let has = |lang: &str| text.chars().any(|c| wide_script(c) == Some(lang));
    ["ja", "ko", "zh"].into_iter().find(|lang| has(lang))
}

/// Whether `c` belongs to a script written without spaces between words, where a character is
/// what a word is elsewhere: Chinese and Japanese (Korean puts spaces between its words).
pub fn unspaced(c: char) -> bool {
    matches!(wide_script(c), Some("zh" | "ja"))
}

/// Words as a word limit counts them: each run between spaces, and in Chinese or Japanese each
/// character, as 字数 counts a text (the punctuation beside those characters not counted). Text
/// without such characters counts as `split_whitespace` does.
pub fn limit_words(text: &str) -> usize {
    text.split_whitespace()
        .map(|token| {
            let characters = token.chars().filter(|&c| unspaced(c)).count();
            if characters == 0 {
                return 1;
            }
            // Letters and digits among the characters ("Trump", "2026") count a word a run.
            let runs = token.split(|c: char| unspaced(c) || !c.is_alphanumeric()).filter(|r| !r.is_empty());
            characters + runs.count()
        })
        .sum()
}

/// How long `text` takes to read aloud, in English words: a word for each run of letters between
/// spaces, and for a script written without spaces (Chinese, Japanese, Korean) three fifths of a
/// word a character, as a reader says some 250 characters in the minute another says 150 words.
pub fn reading_words(text: &str) -> f64 {
    let wide = |c: char| wide_script(c).is_some();
    text.split_whitespace()
        .map(|token| {
            let characters = token.chars().filter(|&c| wide(c)).count();
            let latin = token.chars().any(|c| c.is_alphanumeric() && !wide(c));
            characters as f64 * 0.6 + if characters == 0 || latin { 1.0 } else { 0.0 }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    #[test]
    fn chinese_reads_aloud_by_its_characters_and_english_by_its_words() {
        assert_eq!(super::reading_words("Let me tell you, folks: rail is the future."), 9.0);
        // 50 characters, read at 250 a minute: 12 s, the time of 30 English words at 150.
        let speech = "说实话这个问题问得好我的回答很明确高铁能不能成关键在于怎么做我们必须认真对待每一分钱的去向和用途才行";
        assert_eq!(speech.chars().count(), 50);
        assert!((super::reading_words(speech) - 30.0).abs() < 1e-9);
        // A name in Latin letters inside Chinese counts once, besides the characters around it
        // (punctuation is not read).
        assert!((super::reading_words("谢谢你，Trump。") - (3.0 * 0.6 + 1.0)).abs() < 1e-9);
    }

    #[test]
    fn a_word_limit_counts_chinese_by_its_characters_and_english_by_its_words() {
        let english = "Let me tell you, folks: rail is the future — believe me.";
        assert_eq!(super::limit_words(english), english.split_whitespace().count());
        // 50 characters and three marks of punctuation: 50 words, as 字数 counts them.
        let speech = "说实话，这个问题问得好。我的回答很明确高铁能不能成关键在于怎么做我们必须认真对待每一分钱的去向和用途才行！";
        assert_eq!(super::limit_words(speech), 50);
        assert_eq!(super::limit_words("谢谢你，Trump。2026年见。"), 3 + 1 + 1 + 2);
        // Japanese counts by its characters too; Korean puts spaces between its words.
        assert_eq!(super::limit_words("ありがとう"), 5);
        assert_eq!(super::limit_words("감사합니다 여러분"), 2);
        assert_eq!(super::limit_words("  "), 0);
    }

    use super::*;

    #[test]
    fn sort_stable_sorts_as_the_standard_stable_sort_does() {
        let mut seed = 11u64;
        for len in [0, 1, 12, 13, 50, 333, 2000] {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 59) as u8, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_stable(&mut ours, |a, b| a.0 < b.0);
            let mut std = items.clone();
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std, "length {len}");
            // Descending too, the order a leaderboard uses.
            let mut ours = items.clone();
            sort_stable(&mut ours, |a, b| a.0 > b.0);
            let mut std = items;
            std.sort_by_key(|p| std::cmp::Reverse(p.0));
            assert_eq!(ours, std, "length {len}, descending");
        }
    }

    #[test]
    fn sort_small_sorts_as_the_stable_sort_does() {
        // Pairs sorted by their first half only, so ties show whether their order is kept.
        let mut seed = 7u64;
        for len in [0, 1, 2, 5, 17, 60] {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_small(&mut ours, |a, b| a.0 < b.0);
            let mut std = items;
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std, "length {len}");
        }
    }

    #[test]
    fn fixed_matches_the_standard_formatting() {
        // Ties aside (below), it writes what `{:.N}` writes.
        for x in [0.0, 0.2, 0.20124970334780368, 1.0, 12.3456, -3.27, 99.99, 150.04, -0.04, 281.6] {
            for d in 0..4 {
                let std = format!("{x:.prec$}", prec = d as usize);
                let std = if std.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
                    std.replace('-', "")
                } else {
                    std
                };
                assert_eq!(fixed(x, d), std, "{x} {d}");
            }
        }
        // Exact ties round away from zero.
        assert_eq!(fixed(0.25, 1), "0.3");
        assert_eq!(fixed(-3.25, 1), "-3.3");
        assert_eq!(fixed(f64::NAN, 2), "0");
    }

    #[test]
    fn clipping_counts_characters_and_marks_the_cut() {
        assert_eq!(clip("héllo wörld", 5), "héllo…");
        assert_eq!(clip("short", 5), "short");
    }

    #[test]
    fn a_speech_names_its_language_by_its_script() {
        assert_eq!(script_lang("“城市应该修建高速铁路”值得去做。"), Some("zh"));
        assert_eq!(script_lang("Donald Trump说“越早越好”"), Some("zh"));
        assert_eq!(script_lang("ひらがなと漢字"), Some("ja"));
        assert_eq!(script_lang("안녕하세요"), Some("ko"));
        assert_eq!(script_lang("Let me tell you, folks: ¿por qué no?"), None);
    }
}
