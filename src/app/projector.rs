//! The projector view, for a class watching: the transcript and the method's decisions in large
//! type across the screen, the editor, statistics and call inspector out of the way (the styles
//! are `main.projector` in style/app.css).
//!
//! Its keys are in public/boot/keys.js, where each presses one of the page's buttons (so a key
//! does what its button does, at a fraction of the size of a listener in the app): P turns the
//! view on and off; with it on, Escape leaves it, → steps, ← takes a replay back a step, Space
//! plays or pauses, Enter sends the answer a seat is waiting for. Keys typed into a text field
//! are left alone, but for Enter in the seat's box.

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
            title="Large type for a class (P); → steps, ← steps back in a replay, Space plays, Esc leaves"
            on:click=move |_| on.update(|v| *v = !*v)
        >
            {move || if on.get() { "Leave projector view" } else { "Projector view" }}
        </button>
    }
}
