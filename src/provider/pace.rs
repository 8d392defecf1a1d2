//! Keeping a run within a key's rate limit. A free tier allows a few requests a minute, and a
//! bidding turn of three agents makes four calls at once: a run that sends them as fast as it can
//! meets refusal after refusal, and used to end after three. Here a 429 is read for what it says
//! (a limit per minute or per day, the figure, how long to wait), and [`Pace`] keeps the calls
//! that follow under the limit it learnt, so a lesson on a free key slows down but goes on.

/// A minute, the span every provider Agora knows counts its limit over.
pub const MINUTE_MS: f64 = 60_000.0;

/// Room left for the provider's clock and ours to disagree about when the window moved on.
pub const MARGIN_MS: f64 = 500.0;

/// What a 429's body says of the limit it met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Refusal {
    /// The limit counts calls per minute: waiting will help.
    pub per_minute: bool,
    /// The limit counts per day (or the model has no free allowance at all): waiting a minute
    /// will not help.
    pub spent: bool,
    /// The number of requests the limit allows, when stated (Gemini's "limit: 10", Groq's
    /// "Limit 30", OpenRouter's `X-RateLimit-Limit`).
    pub limit: Option<u32>,
    /// How long to wait, when the body says (Gemini's "retry in 11.6s" and `retryDelay`, Groq's
    /// "try again in 2.5s").
    pub retry_ms: Option<u64>,
}

/// Reads a 429's body. Token limits are not request limits: their figures are left out.
pub fn read_refusal(body: &str) -> Refusal {
    let lower = body.to_ascii_lowercase();
    // A body is read as text, in JSON or not: Gemini puts its reasons in the message, one
    // `*` line per metric, and its OpenAI-compatible endpoint escapes those newlines.
    let lower = lower.replace("\\n", "\n");
    let mut said = Refusal::default();
    for part in lower.split(['\n', '*', ';']) {
        let minute = ["perminute", "per minute", "per-min", "per_minute", "(rpm)", "rpm:"]
            .iter()
            .any(|w| part.contains(w));
        let day = ["perday", "per day", "per-day", "per_day", "(rpd)"].iter().any(|w| part.contains(w));
        said.per_minute |= minute;
        said.spent |= day;
        let counts_tokens = part.contains("token");
        if !counts_tokens && (minute || part.contains("_requests") || part.contains("ratelimit-limit")) {
            if let Some(n) = number_after(part, "limit") {
                said.limit = Some(said.limit.map_or(n, |m| m.min(n)));
            }
        }
        if said.retry_ms.is_none() {
            said.retry_ms = ["retry in ", "try again in ", "\"retrydelay\": \"", "\"retrydelay\":\""]
                .iter()
                .find_map(|w| part.find(w).and_then(|at| seconds(&part[at + w.len()..])));
        }
    }
    // A limit of none at all ("limit: 0") is no allowance to wait for.
    if said.limit == Some(0) {
        said.spent = true;
        said.limit = None;
    }
    said
}

/// The first whole number after `word` (past spaces, colons and quotes), at any of its places.
fn number_after(text: &str, word: &str) -> Option<u32> {
    text.match_indices(word).find_map(|(at, _)| {
        let rest = text[at + word.len()..].trim_start_matches([' ', ':', '"', '=']);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// "37s", "11.665902715s", "1m30.5s" or "2s" as milliseconds.
fn seconds(text: &str) -> Option<u64> {
    let (minutes, rest) = match text.split_once('m') {
        Some((m, rest)) if !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit()) => {
            (m.parse::<u64>().ok()?, rest)
        }
        _ => (0, text),
    };
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    if !rest[end..].starts_with('s') {
        return None;
    }
    let ms = super::parse_retry_after(&rest[..end])?;
    minutes.checked_mul(60_000)?.checked_add(ms)
}

/// The calls a model has been sent lately and the limit its refusals taught: each call takes
/// the next moment the limit allows, so calls that wait together do not all go at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Pace {
    /// The span the limit counts calls over (the settings' `rate_window_ms`).
    window: f64,
    /// When each call of the last window went, or is to go (ascending).
    starts: Vec<f64>,
    /// When the provider refused a call for its rate, over the last window.
    refusals: Vec<f64>,
    /// Calls a window the provider accepts, once a refusal has said or shown it.
    per_window: Option<u32>,
}

impl Default for Pace {
    fn default() -> Self {
        Self::over(MINUTE_MS)
    }
}

impl Pace {
    /// A pace counted over `window` milliseconds.
    pub fn over(window: f64) -> Self {
        Self { window: window.max(1.0), starts: Vec::new(), refusals: Vec::new(), per_window: None }
    }

    /// Calls a minute this key is kept to, once learnt.
    pub fn per_minute(&self) -> Option<u32> {
        self.per_window.map(|n| (f64::from(n) * MINUTE_MS / self.window).round().max(1.0) as u32)
    }

    /// Takes the next moment a call may go at, `now` or later: how long to wait for it.
    pub fn reserve(&mut self, now: f64) -> u64 {
        self.starts.retain(|&t| t > now - self.window);
        let mut at = now;
        if let Some(limit) = self.per_window.map(|n| n.max(1) as usize) {
            if self.starts.len() >= limit {
                // The call `limit` back must have left the window first.
                at = at.max(self.starts[self.starts.len() - limit] + self.window + MARGIN_MS);
            }
        }
        at = at.max(self.starts.last().copied().unwrap_or(at));
        self.starts.push(at);
        (at - now).max(0.0).ceil() as u64
    }

    /// A call sent at or before `now` was refused for its rate: learns the limit the refusal
    /// states (a figure per minute, counted over this pace's window). A refusal that states
    /// none teaches only when it is not the window's first (one 429 may be a busy server, not
    /// a key's limit) and some calls got through: the limit is then the calls the window held
    /// that were not refused.
    /// Never raises it.
    pub fn refused(&mut self, now: f64, stated_per_minute: Option<u32>) {
        let since = now - self.window;
        self.refusals.retain(|&t| t > since);
        self.refusals.push(now);
        let learnt = match stated_per_minute {
            Some(n) => (f64::from(n) * self.window / MINUTE_MS).floor() as u32,
            None if self.refusals.len() < 2 => return,
            None => {
                let sent = self.starts.iter().filter(|&&t| t > since && t <= now).count();
                // Nothing got through: that shows no figure, and backing off is enough.
                match sent.saturating_sub(self.refusals.len()) {
                    0 => return,
                    accepted => accepted as u32,
                }
            }
        }
        .max(1);
        self.per_window = Some(self.per_window.map_or(learnt, |n| n.min(learnt)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geminis_free_tier_says_a_minute_its_figure_and_the_wait() {
        // Gemini's OpenAI-compatible endpoint, as its users quote it: a list around the error.
        let body = r#"[{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.5-flash\nPlease retry in 11.665902715s.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"11s"}]}}]"#;
        let said = read_refusal(body);
        assert_eq!(said, Refusal { per_minute: true, spent: false, limit: Some(10), retry_ms: Some(11_665) });
    }

    #[test]
    fn a_days_limit_or_none_at_all_is_spent() {
        let day = r#"{"error":{"message":"Quota exceeded for metric: generate_content_free_tier_requests, limit: 250","details":[{"violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}}"#;
        assert!(read_refusal(day).spent);
        let none = "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-3.1-pro";
        let said = read_refusal(none);
        assert!(said.spent && said.limit.is_none(), "{said:?}");
        // OpenRouter's free models, a day's allowance used.
        assert!(
            read_refusal(r#"{"error":{"message":"Rate limit exceeded: free-models-per-day.","code":429}}"#)
                .spent
        );
    }

    #[test]
    fn groq_and_openrouter_state_their_request_limits_not_their_token_limits() {
        let groq = r#"{"error":{"message":"Rate limit reached for model `llama-3.1-8b-instant` in organization `org_1` service tier `on_demand` on requests per minute (RPM): Limit 30, Used 30, Requested 1. Please try again in 1m2.5s.","type":"requests","code":"rate_limit_exceeded"}}"#;
        assert_eq!(
            read_refusal(groq),
            Refusal { per_minute: true, spent: false, limit: Some(30), retry_ms: Some(62_500) }
        );
        let tokens = r#"{"error":{"message":"Rate limit reached for model `llama-3.1-8b-instant` on tokens per minute (TPM): Limit 6000, Used 5900, Requested 400. Please try again in 3s."}}"#;
        let said = read_refusal(tokens);
        assert_eq!((said.per_minute, said.limit, said.retry_ms), (true, None, Some(3000)));
        let openrouter = r#"{"error":{"message":"Rate limit exceeded: free-models-per-min. ","code":429,"metadata":{"headers":{"X-RateLimit-Limit":"20","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"1741305600000"}}}}"#;
        let said = read_refusal(openrouter);
        assert_eq!((said.per_minute, said.spent, said.limit), (true, false, Some(20)));
    }

    #[test]
    fn a_plain_429_says_nothing_it_does_not_say() {
        assert_eq!(
            read_refusal(r#"{"error":{"message":"Rate limit reached, slow down"}}"#),
            Refusal::default()
        );
        assert_eq!(read_refusal("try again in a while"), Refusal::default());
    }

    #[test]
    fn calls_go_at_once_until_a_limit_is_learnt_then_keep_within_it() {
        let mut pace = Pace::default();
        // Five calls (the bids of a four-agent turn), then a refusal of the fifth: one refusal
        // says nothing of a limit; a second says the calls not refused were what it allows.
        for _ in 0..5 {
            assert_eq!(pace.reserve(1000.0), 0);
        }
        pace.refused(1200.0, None);
        assert_eq!(pace.per_minute(), None);
        pace.refused(1200.0, None);
        assert_eq!(pace.per_minute(), Some(3));
        // The retry waits for the first of the three before it to leave the minute; calls that
        // wait together take the moments the limit allows, three to a minute.
        let waits: Vec<u64> = (0..4).map(|_| pace.reserve(2000.0)).collect();
        let first = 1000.0 + MINUTE_MS + MARGIN_MS - 2000.0;
        assert_eq!(waits, [first, first, first, first + MINUTE_MS + MARGIN_MS].map(|w| w as u64));
        let at: Vec<f64> = pace.starts.iter().copied().skip(5).collect();
        for (i, t) in at.iter().enumerate() {
            let in_minute = at[i..].iter().filter(|&&u| u < t + MINUTE_MS).count();
            assert!(in_minute <= 3, "{in_minute} calls within a minute of {t}: {at:?}");
        }
    }

    #[test]
    fn a_stated_limit_is_taken_and_a_limit_is_never_raised() {
        let mut pace = Pace::default();
        pace.reserve(0.0);
        pace.refused(10.0, Some(10));
        assert_eq!(pace.per_minute(), Some(10));
        pace.refused(20.0, Some(15));
        assert_eq!(pace.per_minute(), Some(10));
        pace.refused(30.0, None);
        assert_eq!(pace.per_minute(), Some(10), "a call refused twice shows no figure of its own");
        let mut pace = Pace::default();
        for _ in 0..3 {
            pace.reserve(0.0);
        }
        pace.refused(10.0, None);
        pace.refused(10.0, None);
        assert_eq!(pace.per_minute(), Some(1), "three calls, two refused: one got through");
        // Long after, the minute is empty again and a call goes at once.
        assert_eq!(pace.reserve(10.0 * MINUTE_MS), 0);
    }
}
