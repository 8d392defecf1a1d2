//! Reading numbers out of model replies: bids (seed 000) and the director's index (seed 004).
//!
//! Both seeds search the reply for the first match of a pattern such as `<(\d+)>`. Seed 000's
//! parser also falls back to reading the whole reply as an integer when nothing matches, which is
//! why a bare `8` is a valid bid there; that fallback is a setting.

use regex_lite::Regex;

/// Reports a pattern that does not compile or has no capture group to read the value from.
pub fn check_pattern(pattern: &str, field: &str, err: &mut dyn FnMut(&str, String)) {
    match regex_lite::Regex::new(pattern) {
        Ok(re) if re.captures_len() >= 2 => {}
        Ok(_) => err(field, crate::i18n::t(crate::i18n::say::VPatternGroup).into()),
        Err(e) => err(field, crate::i18n::tf(crate::i18n::say::VPatternBad, &[("why", &e)])),
    }
}

/// Compiles a pattern from a validated scenario. Scenario validation rejects bad patterns, so
/// the fallback to the seed's pattern only guards against misuse of the engine API.
pub fn compile(pattern: &str) -> Regex {
    Regex::new(pattern)
        .unwrap_or_else(|_| Regex::new(crate::prompts::BID_PATTERN).expect("seed pattern compiles"))
}

/// Reads an integer from `reply`: the first capture of the first match of `pattern`, or, when
/// `whole_reply` is set and nothing matches, the whole trimmed reply.
pub fn integer(reply: &str, pattern: &Regex, whole_reply: bool) -> Result<i64, String> {
    if let Some(caps) = pattern.captures(reply) {
        let text = caps.get(1).map_or("", |m| m.as_str());
        return text.parse::<i64>().map_err(|_| format!("\"{text}\" is not an integer"));
    }
    if whole_reply {
        if let Some(n) = plain_integer(reply) {
            return Ok(n);
        }
    }
    if reply.trim().is_empty() {
        Err("the reply is empty".into())
    } else {
        Err(format!("no match for {} in the reply", pattern.as_str()))
    }
}

/// Python's `int(text)` for the cases that matter: optional spaces and sign, then digits.
fn plain_integer(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(reply: &str, whole: bool) -> Result<i64, String> {
        integer(reply, &compile(r"<(\d+)>"), whole)
    }

    #[test]
    fn bids_read_as_the_seed_reads_them() {
        // (reply, with the whole-reply fallback, strict)
        let table: [(&str, Option<i64>, Option<i64>); 11] = [
            ("<7>", Some(7), Some(7)),
            ("I say <8>!", Some(8), Some(8)),
            ("8", Some(8), None),
            (" 8\n", Some(8), None),
            ("-3", Some(-3), None),
            ("<7.5>", None, None),
            ("", None, None),
            ("<3><9>", Some(3), Some(3)),
            ("seven", None, None),
            ("<99999999999999999999>", None, None),
            ("<10> out of 10", Some(10), Some(10)),
        ];
        for (reply, whole, strict) in table {
            assert_eq!(bid(reply, true).ok(), whole, "with fallback: {reply:?}");
            assert_eq!(bid(reply, false).ok(), strict, "strict: {reply:?}");
        }
    }

    #[test]
    fn failures_say_why() {
        assert_eq!(bid("", true).unwrap_err(), "the reply is empty");
        assert!(bid("<7.5>", true).unwrap_err().contains("no match"));
        assert!(bid("<99999999999999999999>", true).unwrap_err().contains("not an integer"));
    }
}
