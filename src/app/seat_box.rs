//! Reading the seat's box (drawn by `crate::seat::draw`): what a click, input or key in it
//! answers. The tools module reads it for the teacher's page and for a student's phone.

/// What `event` in the seat's box for `question` (as JSON) answers; none when it answers
/// nothing (typing in the text box counts its words).
pub fn answer_of(question: &str, event: &web_sys::Event) -> Result<Option<crate::seat::Answer>, String> {
    use crate::seat::draw::{button_answer, text_limit, word_note};
    use crate::seat::{Answer, Form, Question};
    use wasm_bindgen::JsCast;
    let q = Question::from_json(question)?;
    let Some(target) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return Ok(None);
    };
    let Some(root) = target.closest("[data-testid=seat]").ok().flatten() else {
        return Ok(None);
    };
    let control = |id: &str| control(&root, id);
    let answered = match event.type_().as_str() {
        "click" => {
            let id = target.get_attribute("data-testid").unwrap_or_default();
            if let Some(i) = id.strip_prefix("seat-choice-").and_then(|i| i.parse::<usize>().ok()) {
                button_answer(&q.form, i)
            } else if id == "seat-send" {
                Some(sent(&q.form, &root))
            } else {
                None
            }
        }
        "input" => {
            if let (Some(limit), Some(count)) = (text_limit(&q.form), control("seat-words")) {
                count.set_text_content(Some(&word_note(&value(&root, "seat-text"), limit)));
            }
            None
        }
        // Typing a digit gives the bid at once (0 for 10), as the buttons do; a digit with
        // Ctrl, Alt or Meta is the browser's (Ctrl+1 picks a tab).
        "keydown" => {
            let held = |name: &str| js_sys::Reflect::get(event, &name.into()).is_ok_and(|v| v.is_truthy());
            let key = js_sys::Reflect::get(event, &"key".into())
                .ok()
                .and_then(|k| k.as_string())
                .filter(|_| !["ctrlKey", "altKey", "metaKey"].iter().any(|m| held(m)));
            match (&q.form, key.and_then(|k| k.parse::<u32>().ok())) {
                (Form::Number { .. }, Some(d)) => Some(Answer::Number(if d == 0 { 10 } else { d })),
                _ => None,
            }
        }
        _ => None,
    };
    Ok(answered)
}

/// What the seat's box `root` (drawn for `form`) holds as its answer, as its Send button sends it:
/// its text and what its lists and quantity say.
fn sent(form: &crate::seat::Form, root: &web_sys::Element) -> crate::seat::Answer {
    let value = |id: &str| value(root, id);
    let picks: Vec<usize> = (0..3).map(|i| value(&format!("seat-pick-{i}")).parse().unwrap_or(0)).collect();
    crate::seat::draw::answer(form, value("seat-text"), &picks, &value("seat-quantity"))
}

/// What the seat's box `root` for `question` (as JSON) sends, as its Send button would (Enter,
/// from the page's keys).
pub fn send_of(question: &str, root: &web_sys::Element) -> Result<crate::seat::Answer, String> {
    Ok(sent(&crate::seat::Question::from_json(question)?.form, root))
}

/// The seat box's control `id`.
fn control(root: &web_sys::Element, id: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid={id}]")).ok().flatten()
}

/// The value of the seat box's control `id` ("" when there is none).
fn value(root: &web_sys::Element, id: &str) -> String {
    control(root, id)
        .and_then(|e| js_sys::Reflect::get(&e, &"value".into()).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}
