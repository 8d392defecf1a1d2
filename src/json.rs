//! JSON helpers that keep serde's generic code out of the browser build, where it is paid for in
//! download size: [`indent`] (indented JSON made from the compact text, so each type has one
//! writer), [`read`] (typed data always read through a JSON value, so each type has one reader)
//! and [`Fields`] with its two macros (hand-written readers for the scenario and the event log).

/// `compact` (JSON with no whitespace outside strings, as `serde_json::to_string` writes it)
/// indented by two spaces per level: exactly serde_json's pretty form (`"key": value`, `[]`, `{}`).
pub fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() + compact.len() / 4);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// Reads `T` from JSON text through a JSON value, so that serde's readers for `T` exist once
/// (for values) in the browser build rather than once more for text.
pub fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    T::deserialize(serde_json::from_str::<serde_json::Value>(text)?)
}

/// The fields of one JSON object, taken out one by one by hand-written readers.
///
/// Readers written with this are much smaller in the browser build than serde's derive, which
/// emits, for every field of every struct, key matching, duplicate checks and a typed reader;
/// here plain values (text, numbers, flags) go through a few shared, non-generic functions, and
/// only nested types through serde ([`Fields::any`]). The rules follow serde's: unknown fields
/// are ignored, a field left out of a struct with defaults keeps its default, and `null` is only
/// an empty `Option`.
pub struct Fields {
    /// What the object is, for messages: "the scenario", "method".
    what: std::borrow::Cow<'static, str>,
    map: serde_json::Map<String, serde_json::Value>,
}

impl Fields {
    pub fn new(value: serde_json::Value, what: &'static str) -> Result<Fields, String> {
        match value {
            serde_json::Value::Object(map) => Ok(Fields { what: what.into(), map }),
            _ => Err(format!("{what} must be a JSON object")),
        }
    }

    /// Says what the object is, once that is known (an event, after its `type`).
    pub fn describe(&mut self, what: String) {
        self.what = what.into();
    }

    fn missing(&self, name: &str) -> String {
        format!("{} has no `{name}`", self.what)
    }

    fn plain<T>(
        &mut self,
        name: &str,
        expected: &str,
        read: fn(serde_json::Value) -> Option<T>,
    ) -> Result<Option<T>, String> {
        match self.map.remove(name) {
            None => Ok(None),
            Some(value) => match read(value) {
                Some(v) => Ok(Some(v)),
                None => Err(format!("`{name}` of {} must be {expected}", self.what)),
            },
        }
    }

    /// Text, or `None` when left out.
    pub fn maybe_string(&mut self, name: &str) -> Result<Option<String>, String> {
        self.plain(name, "text", |v| match v {
            serde_json::Value::String(s) => Some(s),
            _ => None,
        })
    }

    /// A whole number from 0 to 4,294,967,295, or `None` when left out.
    pub fn maybe_u32(&mut self, name: &str) -> Result<Option<u32>, String> {
        self.plain(name, "a whole number from 0", |v| v.as_u64().and_then(|n| u32::try_from(n).ok()))
    }

    pub fn maybe_u64(&mut self, name: &str) -> Result<Option<u64>, String> {
        self.plain(name, "a whole number from 0", |v| v.as_u64())
    }

    pub fn maybe_i64(&mut self, name: &str) -> Result<Option<i64>, String> {
        self.plain(name, "a whole number", |v| v.as_i64())
    }

    pub fn maybe_f64(&mut self, name: &str) -> Result<Option<f64>, String> {
        self.plain(name, "a number", |v| v.as_f64())
    }

    pub fn maybe_bool(&mut self, name: &str) -> Result<Option<bool>, String> {
        self.plain(name, "true or false", |v| v.as_bool())
    }

    /// Text that may be left out or `null`.
    pub fn opt_string(&mut self, name: &str) -> Result<Option<String>, String> {
        if self.take_null(name) {
            return Ok(None);
        }
        self.maybe_string(name)
    }

    /// A nested object, or `None` when left out or `null`.
    pub fn opt_object(&mut self, name: &str, what: &'static str) -> Result<Option<Fields>, String> {
        if self.take_null(name) {
            return Ok(None);
        }
        self.map.remove(name).map(|v| Fields::new(v, what)).transpose()
    }

    /// Takes the field out if it is `null`.
    fn take_null(&mut self, name: &str) -> bool {
        let null = matches!(self.map.get(name), Some(serde_json::Value::Null));
        if null {
            self.map.remove(name);
        }
        null
    }

    pub fn string(&mut self, name: &str) -> Result<String, String> {
        self.maybe_string(name)?.ok_or_else(|| self.missing(name))
    }

    pub fn u32(&mut self, name: &str) -> Result<u32, String> {
        self.maybe_u32(name)?.ok_or_else(|| self.missing(name))
    }

    pub fn u64(&mut self, name: &str) -> Result<u64, String> {
        self.maybe_u64(name)?.ok_or_else(|| self.missing(name))
    }

    pub fn i64(&mut self, name: &str) -> Result<i64, String> {
        self.maybe_i64(name)?.ok_or_else(|| self.missing(name))
    }

    pub fn f64(&mut self, name: &str) -> Result<f64, String> {
        self.maybe_f64(name)?.ok_or_else(|| self.missing(name))
    }

    pub fn bool(&mut self, name: &str) -> Result<bool, String> {
        self.maybe_bool(name)?.ok_or_else(|| self.missing(name))
    }

    /// A whole number that may be left out or `null`.
    pub fn opt_i64(&mut self, name: &str) -> Result<Option<i64>, String> {
        if self.take_null(name) {
            return Ok(None);
        }
        self.maybe_i64(name)
    }

    /// A count or position.
    pub fn usize(&mut self, name: &str) -> Result<usize, String> {
        let n =
            self.plain(name, "a whole number from 0", |v| v.as_u64().and_then(|n| usize::try_from(n).ok()))?;
        n.ok_or_else(|| self.missing(name))
    }

    // Setters: the value replaces `target` when the field is there. One call per field keeps the
    // readers of structs with defaults small.

    pub fn set_string(&mut self, name: &str, target: &mut String) -> Result<(), String> {
        if let Some(v) = self.maybe_string(name)? {
            *target = v;
        }
        Ok(())
    }

    pub fn set_u32(&mut self, name: &str, target: &mut u32) -> Result<(), String> {
        if let Some(v) = self.maybe_u32(name)? {
            *target = v;
        }
        Ok(())
    }

    pub fn set_u64(&mut self, name: &str, target: &mut u64) -> Result<(), String> {
        if let Some(v) = self.maybe_u64(name)? {
            *target = v;
        }
        Ok(())
    }

    pub fn set_i64(&mut self, name: &str, target: &mut i64) -> Result<(), String> {
        if let Some(v) = self.maybe_i64(name)? {
            *target = v;
        }
        Ok(())
    }

    pub fn set_f64(&mut self, name: &str, target: &mut f64) -> Result<(), String> {
        if let Some(v) = self.maybe_f64(name)? {
            *target = v;
        }
        Ok(())
    }

    pub fn set_bool(&mut self, name: &str, target: &mut bool) -> Result<(), String> {
        if let Some(v) = self.maybe_bool(name)? {
            *target = v;
        }
        Ok(())
    }

    pub fn set_any<T: serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
        target: &mut T,
    ) -> Result<(), String> {
        if let Some(v) = self.maybe_any(name)? {
            *target = v;
        }
        Ok(())
    }

    /// A field's JSON as written, taken out unread; `None` when left out.
    pub fn take(&mut self, name: &str) -> Option<serde_json::Value> {
        self.map.remove(name)
    }

    /// A value kept as written ([`Kept`]), that must be present.
    pub fn kept<T: serde::de::DeserializeOwned>(&mut self, name: &str) -> Result<Kept<T>, String> {
        let value = self.map.remove(name).ok_or_else(|| self.missing(name))?;
        Kept::from_value(value).map_err(|e| format!("`{name}` of {}: {e}", self.what))
    }

    /// A value kept as written ([`Kept`]), left out when empty: absent reads as `null`.
    pub fn kept_or_default<T: serde::de::DeserializeOwned>(&mut self, name: &str) -> Result<Kept<T>, String> {
        match self.map.remove(name) {
            None => Ok(Kept::default()),
            Some(value) => Kept::from_value(value).map_err(|e| format!("`{name}` of {}: {e}", self.what)),
        }
    }

    /// A nested value read by serde, or `None` when left out.
    pub fn maybe_any<T: serde::de::DeserializeOwned>(&mut self, name: &str) -> Result<Option<T>, String> {
        match self.map.remove(name) {
            None => Ok(None),
            Some(value) => {
                T::deserialize(value).map(Some).map_err(|e| format!("`{name}` of {}: {e}", self.what))
            }
        }
    }

    /// A nested value read by serde, that must be present.
    pub fn any<T: serde::de::DeserializeOwned>(&mut self, name: &str) -> Result<T, String> {
        self.maybe_any(name)?.ok_or_else(|| self.missing(name))
    }

    /// A field written only when it is not empty: absent reads as empty.
    pub fn any_or_default<T: serde::de::DeserializeOwned + Default>(
        &mut self,
        name: &str,
    ) -> Result<T, String> {
        Ok(self.maybe_any(name)?.unwrap_or_default())
    }

    /// A flag written only when set.
    pub fn bool_or_false(&mut self, name: &str) -> Result<bool, String> {
        Ok(self.maybe_bool(name)?.unwrap_or(false))
    }

    /// Text written only when not empty.
    pub fn string_or_empty(&mut self, name: &str) -> Result<String, String> {
        Ok(self.maybe_string(name)?.unwrap_or_default())
    }

    /// A count that older files leave out, read as 0.
    pub fn u32_or_zero(&mut self, name: &str) -> Result<u32, String> {
        Ok(self.maybe_u32(name)?.unwrap_or(0))
    }
}

/// Overwrites each named field of `$target` whose value the object has, with the [`Fields`]
/// setter named beside it: `set_present!(f, s, title: set_string, turns: set_u32)`.
macro_rules! set_present {
    ($fields:ident, $target:ident, $($field:ident: $set:ident),* $(,)?) => {
        $($fields.$set(stringify!($field), &mut $target.$field)?;)*
    };
}
pub(crate) use set_present;

/// Declares a settings struct once: each field with the [`Fields`] setter that reads it. Gives
/// the struct (serde writes it under the same names) and `read_present`, which overwrites each
/// field the object has, so what is left out keeps its default.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty = $set:ident,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl crate::json::ReadPresent for $name {
            fn read_present(&mut self, f: &mut crate::json::Fields) -> Result<(), String> {
                let _ = &f;
                $(f.$set(stringify!($field), &mut self.$field)?;)*
                Ok(())
            }
        }
    };
}
pub(crate) use settings;

/// Settings whose fields are read one by one (written by [`settings!`]): each field present in
/// the JSON replaces the value already there, and a field left out keeps it.
pub trait ReadPresent {
    fn read_present(&mut self, f: &mut Fields) -> Result<(), String>;
}

/// A temperature for a request: a number, or null when it is not one (JSON has no NaN).
pub fn temperature(t: f64) -> serde_json::Value {
    if t.is_finite() {
        serde_json::json!(t)
    } else {
        serde_json::Value::Null
    }
}

/// Implements serde's `Deserialize` for a type through its hand-written `read(Fields)`, so the
/// type still nests inside serde-read types and `serde_json::from_value` still works.
macro_rules! deserialize_with_fields {
    ($type:ty, $what:expr) => {
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                use serde::de::Error;
                let value = serde_json::Value::deserialize(deserializer)?;
                let fields = crate::json::Fields::new(value, $what).map_err(D::Error::custom)?;
                <$type>::read(fields).map_err(D::Error::custom)
            }
        }
    };
}
pub(crate) use deserialize_with_fields;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temperature_goes_out_as_written_not_as_an_f32_widens() {
        for (t, sent) in [(0.2, "0.2"), (0.7, "0.7"), (1.0, "1.0"), (0.0, "0.0"), (1.35, "1.35")] {
            assert_eq!(temperature(t).to_string(), sent);
        }
        assert_eq!(temperature(f64::NAN), serde_json::Value::Null);
    }

    #[test]
    fn matches_serde_pretty_for_every_preset_run() {
        for preset in crate::presets::PRESETS {
            let scenario = preset.scenario();
            let events: serde_json::Value = serde_json::from_str(&crate::events::Event::list_json(
                &crate::engine::demo_events(&scenario),
            ))
            .unwrap();
            let file = serde_json::json!({"scenario": scenario, "events": events, "empty": [{}, []]});
            assert_eq!(
                indent(&file.to_string()),
                serde_json::to_string_pretty(&file).unwrap(),
                "{}",
                preset.id
            );
        }
    }

    #[test]
    fn strings_with_json_punctuation_and_escapes_stay_as_they_are() {
        let value = serde_json::json!({"a{": "x, [y]: \"z\" \\", "b": ["}", "\\\"", ""], "c": {"d": null}});
        assert_eq!(indent(&value.to_string()), serde_json::to_string_pretty(&value).unwrap());
        assert_eq!(indent("[]"), "[]");
        assert_eq!(indent("3"), "3");
    }

    #[test]
    fn fields_read_plain_values_and_name_what_is_wrong() {
        let value = serde_json::json!({"n": 3, "big": 5_000_000_000u64, "neg": -2, "x": 0.5, "t": "hi",
            "b": true, "none": null, "list": [1, 2]});
        let mut f = Fields::new(value, "the test").unwrap();
        assert_eq!(f.u32("n"), Ok(3));
        assert_eq!(f.u32("big").unwrap_err(), "`big` of the test must be a whole number from 0");
        assert_eq!(f.maybe_i64("neg"), Ok(Some(-2)));
        assert_eq!(f.maybe_f64("x"), Ok(Some(0.5)));
        assert_eq!(f.string("t").as_deref(), Ok("hi"));
        assert_eq!(f.maybe_bool("b"), Ok(Some(true)));
        assert_eq!(f.opt_string("none"), Ok(None));
        assert_eq!(f.maybe_u64("absent"), Ok(None));
        assert_eq!(f.any::<Vec<i64>>("list"), Ok(vec![1, 2]));
        assert_eq!(f.string("t").unwrap_err(), "the test has no `t`", "a field is taken once");
        let mut f = Fields::new(serde_json::json!({"n": "3", "s": 3, "f": 1.5, "l": [1]}), "it").unwrap();
        assert_eq!(f.maybe_u64("n").unwrap_err(), "`n` of it must be a whole number from 0");
        assert_eq!(f.string("s").unwrap_err(), "`s` of it must be text");
        assert_eq!(f.maybe_i64("f").unwrap_err(), "`f` of it must be a whole number");
        assert!(f.any::<Vec<String>>("l").unwrap_err().starts_with("`l` of it: invalid type"));
        assert_eq!(Fields::new(serde_json::json!([]), "it").err().unwrap(), "it must be a JSON object");
    }
}

/// A value kept as the JSON it was written in, read into `T` only where it is used
/// ([`Kept::read`]), and checked to be a `T` where it is read in ([`Kept::from_value`]), in the
/// terminal and on the page alike, so neither ever holds an event it cannot read.
#[derive(Debug, PartialEq)]
pub struct Kept<T> {
    json: serde_json::Value,
    kind: std::marker::PhantomData<fn() -> T>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { json: serde_json::Value::Null, kind: std::marker::PhantomData }
    }
}

impl<T> Clone for Kept<T> {
    fn clone(&self) -> Self {
        Kept { json: self.json.clone(), kind: std::marker::PhantomData }
    }
}

impl<T: serde::Serialize + serde::de::DeserializeOwned> Kept<T> {
    pub fn new(value: &T) -> Self {
        // Every type kept so is plain data, whose JSON form cannot fail to be written.
        Kept { json: serde_json::to_value(value).unwrap_or_default(), kind: std::marker::PhantomData }
    }

    /// The value read as a `T`, or what is wrong with it.
    pub fn read(&self) -> Result<T, String> {
        T::deserialize(&self.json).map_err(|e| e.to_string())
    }
}

impl<T: serde::de::DeserializeOwned> Kept<T> {
    /// `json` kept as written; refused here when it is not a `T`.
    pub fn from_value(json: serde_json::Value) -> Result<Self, String> {
        T::deserialize(&json).map_err(|e| e.to_string())?;
        Ok(Kept { json, kind: std::marker::PhantomData })
    }
}

impl<T> Kept<T> {
    /// Nothing kept (`null`): left out of an event's JSON where that is allowed.
    pub fn is_null(&self) -> bool {
        self.json.is_null()
    }
}

impl<T> serde::Serialize for Kept<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl<'de, T: serde::de::DeserializeOwned> serde::Deserialize<'de> for Kept<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Kept::from_value(serde_json::Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}
