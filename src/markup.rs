//! Markup: HTML that may go into the page as HTML. A few panels write their rows as HTML text
//! rather than as views (it keeps the first page smaller), and everything they show comes from a
//! scenario or a model, which may hold `<script>` or `<img onerror>` on purpose. So HTML text is
//! a type of its own, made only from templates written in this program's code and from text that
//! is escaped on the way in; the page's one way to set an element's inner HTML takes nothing else
//! (`crate::app::markup`), and clippy refuses the other ways (clippy.toml).
//!
//! `markup!("<li class=\"x\">{}</li>", text)` writes the literal template as it is and each
//! argument through [`Fragment`]: text is escaped (for element content and for quoted attribute
//! values alike), numbers are written as they are, and [`Markup`] goes in unchanged. A template
//! cannot name a variable inside its braces (`{name}`): that would bypass the escaping, so the
//! macro refuses it when the program is compiled.

use std::fmt::{self, Display, Write};

/// HTML built only from this program's templates and escaped text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markup(String);

impl Markup {
    pub const fn new() -> Self {
        Self(String::new())
    }

    /// Text, escaped: it shows as the same characters and never becomes markup.
    pub fn text(text: &str) -> Self {
        let mut out = Self::new();
        out.push_text(text);
        out
    }

    /// A template written in the program's code (a literal or a constant), taken as markup.
    pub fn from_static(html: &'static str) -> Self {
        Self(html.to_string())
    }

    /// What [`markup!`] makes of its template and arguments.
    #[doc(hidden)]
    pub fn from_args(args: fmt::Arguments<'_>) -> Self {
        Self(fmt::format(args))
    }

    pub fn push(&mut self, piece: impl Fragment) {
        // Writing to a String cannot fail.
        let _ = write!(self.0, "{}", Piece(&piece));
    }

    /// Appends literal markup from the program's code.
    pub fn push_static(&mut self, html: &'static str) {
        self.0.push_str(html);
    }

    pub fn push_text(&mut self, text: &str) {
        let _ = escape(text, &mut self.0);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl Extend<Markup> for Markup {
    fn extend<I: IntoIterator<Item = Markup>>(&mut self, pieces: I) {
        for piece in pieces {
            self.0.push_str(&piece.0);
        }
    }
}

impl FromIterator<Markup> for Markup {
    fn from_iter<I: IntoIterator<Item = Markup>>(pieces: I) -> Self {
        let mut out = Self::new();
        out.extend(pieces);
        out
    }
}

/// Writes `text` with the five characters that HTML reads as markup replaced by their entities:
/// safe between tags and inside an attribute value in either kind of quotes.
fn escape(text: &str, out: &mut dyn Write) -> fmt::Result {
    let mut rest = text;
    while let Some(at) = rest.bytes().position(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'')) {
        out.write_str(&rest[..at])?;
        out.write_str(match rest.as_bytes()[at] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        })?;
        rest = &rest[at + 1..];
    }
    out.write_str(rest)
}

/// Something that goes into markup: text is escaped, markup and numbers are written as they are.
pub trait Fragment {
    fn write_html(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl Fragment for str {
    fn write_html(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        escape(self, out)
    }
}

impl Fragment for String {
    fn write_html(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        escape(self, out)
    }
}

impl Fragment for Markup {
    fn write_html(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(&self.0)
    }
}

impl<T: Fragment + ?Sized> Fragment for &T {
    fn write_html(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).write_html(out)
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Fragment for $t {
            fn write_html(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
                Display::fmt(self, out)
            }
        }
    )*};
}
numbers!(u8, u16, u32, u64, usize, i32, i64, f64);

/// An argument of [`markup!`], written as a [`Fragment`].
#[doc(hidden)]
pub struct Piece<'a, T: ?Sized>(pub &'a T);

impl<T: Fragment + ?Sized> Display for Piece<'_, T> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_html(out)
    }
}

/// Whether a template names its arguments only by position (`{}` or `{0}`): a name inside the
/// braces would take a variable from the code around it without escaping it.
#[doc(hidden)]
pub const fn positional_only(template: &str) -> bool {
    let bytes = template.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if i + 1 < bytes.len() && bytes[i + 1] == b'{' {
                i += 2;
                continue;
            }
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] != b'}' {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// Markup from a literal template and arguments (see the module's documentation).
#[macro_export]
macro_rules! markup {
    ($template:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!(
            $crate::markup::positional_only($template),
            "a markup! template takes its arguments after it, as {{}}: a name or format inside the braces is not escaped"
        );
        $crate::markup::Markup::from_args(format_args!($template $(, $crate::markup::Piece(&$arg))*))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAYLOADS: [&str; 5] = [
        "<img src=x onerror=\"alert(1)\">",
        "<script>alert('x')</script>",
        "<svg onload=alert(1)>",
        "\"><a href=\"javascript:alert(1)\">x</a>",
        "' onmouseover='alert(1)",
    ];

    #[test]
    fn text_in_a_template_never_becomes_markup() {
        for payload in PAYLOADS {
            let html = markup!("<li data-agent=\"{}\" title='{}'>{}</li>", payload, payload, payload);
            let html = html.as_str();
            // The template's own characters and nothing of the payload's.
            assert_eq!(html.matches('<').count(), 2, "{html}");
            assert_eq!(html.matches('>').count(), 2, "{html}");
            assert_eq!(html.matches('"').count(), 2, "{html}");
            assert_eq!(html.matches('\'').count(), 2, "{html}");
        }
        assert_eq!(
            markup!("<p>{}</p>", r#"<img src=x onerror="a('b')"> & co"#).as_str(),
            "<p>&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co</p>"
        );
        assert_eq!(Markup::text("Zoë says hi").as_str(), "Zoë says hi");
    }

    #[test]
    fn markup_and_numbers_go_in_unchanged() {
        let inner = markup!("<b>{}</b>", "a<b");
        let html = markup!("<p data-n=\"{}\">{} {} {}</p>", 3usize, inner, 0.5, String::from("&"));
        assert_eq!(html.as_str(), "<p data-n=\"3\"><b>a&lt;b</b> 0.5 &amp;</p>");
        let mut built = Markup::new();
        built.push_static("<ul>");
        built.push("<x>");
        built.push(markup!("<li>{}</li>", 1u32));
        built.push_static("</ul>");
        assert_eq!(built.as_str(), "<ul>&lt;x&gt;<li>1</li></ul>");
    }

    #[test]
    fn templates_that_name_a_variable_are_refused() {
        assert!(positional_only("<p>{}</p>{0}{{literal}}"));
        assert!(!positional_only("<p>{name}</p>"));
        assert!(!positional_only("<p>{:?}</p>"));
        assert!(!positional_only("<p>{0:>5}</p>"));
        assert!(!positional_only("<p>{"));
    }
}
