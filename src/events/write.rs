//! Writing events as JSON (see the `events!` declaration in events.rs): each field goes through
//! serde_json's writer, so strings, numbers and nested values are written exactly as serde
//! writes them everywhere else.

use serde::Serialize;

/// Appends `key` (`,"name":`, as the declaration spells it) and the value.
pub(crate) fn field<T: Serialize + ?Sized>(out: &mut Vec<u8>, key: &str, value: &T) {
    out.extend_from_slice(key.as_bytes());
    // Writing to a Vec cannot fail, and every type in an event serializes.
    let _ = serde_json::to_writer(&mut *out, value);
}

/// A field declared `unless empty` is left out when this holds.
pub(super) fn empty<T: Empty + ?Sized>(value: &T) -> bool {
    value.is_empty()
}

pub(super) trait Empty {
    fn is_empty(&self) -> bool;
}

impl<T> Empty for Vec<T> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

impl<T> Empty for Option<T> {
    fn is_empty(&self) -> bool {
        self.is_none()
    }
}

impl<T> Empty for crate::json::Kept<T> {
    fn is_empty(&self) -> bool {
        self.is_null()
    }
}

impl Empty for String {
    fn is_empty(&self) -> bool {
        String::is_empty(self)
    }
}

impl Empty for bool {
    fn is_empty(&self) -> bool {
        !*self
    }
}

/// The bytes written as text: serde_json writes only valid UTF-8, and so do the keys above.
pub(super) fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_default()
}
