//! Server-sent events, decoded incrementally from the chunks a streaming response arrives in.
//!
//! Chunks split anywhere: inside a line, inside an event, inside a UTF-8 character. Bytes are
//! kept until a whole line is in, so text is only decoded from complete lines. Comment lines
//! (`: keep-alive`) are skipped, `\r\n` line ends accepted, and an event is handed out at the
//! blank line that ends it.

/// One event: its type (empty when the stream names none) and its data lines joined by `\n`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    pub event: String,
    pub data: String,
}

#[derive(Debug, Default)]
pub struct SseDecoder {
    pending: Vec<u8>,
    event: String,
    data: Vec<String>,
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next chunk; returns the events it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        self.pending.extend_from_slice(chunk);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(end) = self.pending[start..].iter().position(|&b| b == b'\n') {
            let line_end = start + end;
            let mut line = &self.pending[start..line_end];
            if line.last() == Some(&b'\r') {
                line = &line[..line.len() - 1];
            }
            let line = String::from_utf8_lossy(line).into_owned();
            self.line(&line, &mut out);
            start = line_end + 1;
        }
        self.pending.drain(..start);
        out
    }

    /// The stream has ended: an event still open (no closing blank line) is handed out too.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.pending.is_empty() {
            let rest = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
            self.line(rest.trim_end_matches('\r'), &mut out);
        }
        self.line("", &mut out);
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if !self.data.is_empty() {
                out.push(SseEvent { event: std::mem::take(&mut self.event), data: self.data.join("\n") });
                self.data.clear();
            }
            self.event.clear();
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "data" => self.data.push(value.to_string()),
            "event" => self.event = value.to_string(),
            _ => {} // id, retry: nothing a chat stream needs
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(stream: &[u8], sizes: &[usize]) -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        let mut rest = stream;
        let mut i = 0;
        while !rest.is_empty() {
            let n = sizes[i % sizes.len()].clamp(1, rest.len());
            out.extend(d.feed(&rest[..n]));
            rest = &rest[n..];
            i += 1;
        }
        out.extend(d.finish());
        out
    }

    #[test]
    fn events_survive_any_split() {
        let stream = ": keep-alive\r\n\r\nevent: delta\r\ndata: {\"t\":\"héllo ✓\"}\r\n\r\ndata: a\ndata: b\n\n: ping\ndata: [DONE]\n\n";
        let expected = vec![
            SseEvent { event: "delta".into(), data: "{\"t\":\"héllo ✓\"}".into() },
            SseEvent { event: String::new(), data: "a\nb".into() },
            SseEvent { event: String::new(), data: "[DONE]".into() },
        ];
        for sizes in [&[1][..], &[2], &[3, 7], &[5, 1, 11], &[1000]] {
            assert_eq!(decode_in_pieces(stream.as_bytes(), sizes), expected, "{sizes:?}");
        }
    }

    #[test]
    fn an_event_cut_off_by_the_end_of_the_stream_is_still_read() {
        let mut d = SseDecoder::new();
        assert!(d.feed(b"data: partial").is_empty());
        assert_eq!(d.finish(), vec![SseEvent { event: String::new(), data: "partial".into() }]);
    }

    /// An event as a server writes it: a name or none, data lines, comments, either line end.
    fn written(events: &[(Option<String>, Vec<String>, bool)], crlf: bool) -> (Vec<u8>, Vec<SseEvent>) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = String::new();
        let mut expected = Vec::new();
        for (name, lines, comment) in events {
            if *comment {
                text.push_str(&format!(": ping{end}"));
            }
            if let Some(name) = name {
                text.push_str(&format!("event: {name}{end}"));
            }
            for line in lines {
                text.push_str(&format!("data: {line}{end}"));
            }
            text.push_str(end);
            expected.push(SseEvent { event: name.clone().unwrap_or_default(), data: lines.join("\n") });
        }
        (text.into_bytes(), expected)
    }

    proptest::proptest! {
        #[test]
        fn streams_of_events_read_the_same_however_they_are_cut(
            events in proptest::collection::vec(
                (
                    proptest::option::of("[a-z_]{1,12}"),
                    // Data lines with JSON-ish and non-ASCII text, never a line end inside.
                    proptest::collection::vec("[^\r\n]{0,40}", 1..4),
                    proptest::bool::ANY,
                ),
                0..12,
            ),
            crlf in proptest::bool::ANY,
            cuts in proptest::collection::vec(1usize..40, 1..6),
        ) {
            let (bytes, expected) = written(&events, crlf);
            proptest::prop_assert_eq!(decode_in_pieces(&bytes, &cuts), expected);
        }

        #[test]
        fn any_bytes_decode_without_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400), cut in 1usize..50) {
            let events = decode_in_pieces(&bytes, &[cut]);
            let whole = decode_in_pieces(&bytes, &[bytes.len().max(1)]);
            proptest::prop_assert_eq!(events, whole);
        }
    }
}
