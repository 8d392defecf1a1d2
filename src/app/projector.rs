//! The projector view, for a class watching: the transcript and the method's decisions in large
//! type across the screen, the editor, statistics and call inspector out of the way (the styles
//! are `main.projector` in style/app.css).
//!
//! Its keys are the page's (`app::keys`, their meanings in `crate::keys`): P turns the view on
//! and off; with it on, Escape leaves it, → steps, ← takes a replay back a step, Space plays or
//! pauses, Enter sends the answer a seat is waiting for. Keys typed into a text field are left
//! alone, but for Enter in the seat's box.

use leptos::prelude::*;

use super::Controller;

/// The button that turns the view on and off (P does the same).
#[component]
pub fn ProjectorButton() -> impl IntoView {
    let on = expect_context::<Controller>().projector;
    view! {
        <button
            data-testid="projector"
            aria-pressed=move || on.get().to_string()
            title=crate::i18n::t(crate::i18n::say::ProjectorTitle)
            on:click=move |ev| {
                on.update(|v| *v = !*v);
                // The focus goes back to the page, so that Space then plays instead of pressing
                // this again.
                if let Some(button) = ev.current_target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok()) {
                    let _ = button.blur();
                }
            }
        >
            {move || if on.get() { crate::i18n::t(crate::i18n::say::ProjectorLeave) } else { crate::i18n::t(crate::i18n::say::Projector) }}
        </button>
    }
}
