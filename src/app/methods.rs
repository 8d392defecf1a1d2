//! Each speaker-selection method's part of the app: its name, its decision panel and its
//! settings in the editor (`panels/<method>.rs`), listed once in the registry. What those panels share is below both, in [`crate::ui::kit`].

use leptos::prelude::*;

use crate::scenario::{Method, MethodKind};

/// Each method's panel and editor settings, from the registry (`panels/<method>.rs`).
macro_rules! app_methods {
    ($($kind:ident $module:ident $id:literal $label:literal,)*) => {
        /// The decision panel of a method.
        pub fn panel(kind: MethodKind, view: RwSignal<crate::view::RunView>) -> AnyView {
            match kind {
                $(MethodKind::$kind => crate::panels::$module::panel(view),)*
            }
        }

        /// The settings of a method in the editor.
        pub fn settings(kind: MethodKind) -> AnyView {
            match kind {
                $(MethodKind::$kind => crate::panels::$module::settings(),)*
            }
        }
    };
}

crate::methods::registry::each_method!(app_methods);

/// A label for a method.
pub fn method_label(method: &Method) -> &'static str {
    method.kind().label()
}
