//! The trading game: inventories, the pending proposal, every action, scores, the optimizer;
//! and the game's settings.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::form::{number_field, text_field, EditorState, FieldMessage};
use crate::ui::kit::{update_method, with_method};
use crate::ui::rows::chunked;
use crate::methods::shown::Shown;
use crate::markup;
use crate::markup::Markup;
use crate::text::fixed;
use crate::ui::MarkupAttribute;
use super::view::{ActionRow, NegotiationView};

/// The trading game: inventories, the pending proposal, every action, scores, the optimizer.
fn negotiation_panel<V: Shown>(view: RwSignal<V>) -> impl IntoView {
    let count =
        Memo::new(move |_| view.with(|v| v.negotiation().map_or(0, |g| g.actions.len())));
    view! {
        <div class="panel" data-testid="negotiation-panel">
            <h2>"Trading game"</h2>
            <div markup=move || {
                view.with(|v| v.negotiation().map(game_state)).unwrap_or_default()
            }></div>
            <div markup=move || {
                view.with(|v| v.negotiation().map(|g| optimizer_chart(&g.optimizer, g.optimum)))
                    .unwrap_or_default()
            }></div>
            // The rules and the goal until the first move, under the game (whose inventories a seat
            // asked to trade must see first); then the game has the room.
            {move || (count.get() == 0).then(|| view! {
                <p class="muted" data-testid="negotiation-rules">
                    "Two players take turns: TRADE offers one resource for another, the other player ACCEPTs or REJECTs, and the game ends when one asks to END and the other agrees. "
                    "Each player sees only its own inventory; more of one resource is worth more (the value scale), and the goal is the highest value of both inventories together. "
                    "Between games an optimizer reads the score and rewrites each player's strategy."
                </p>
            })}
            <h3>"Actions"</h3>
            <ol class="actions">
                {chunked(
                    count,
                    Arc::new(move |a, b| {
                        view.with(|v| {
                            let actions = v.negotiation().map(|g| g.actions.as_slice()).unwrap_or_default();
                            actions.iter().skip(a).take(b - a).map(|x| x.turn as u64).collect()
                        })
                    }),
                    Arc::new(move |i| {
                        let action = view
                            .with_untracked(|v| v.negotiation().and_then(|g| g.actions.get(i).cloned()))?;
                        Some(view! { <ActionEntry action=action /> }.into_any())
                    }),
                    true,
                )}
            </ol>
        </div>
    }
}

/// The game on screen: the inventories, the overall score against the optimum, the proposal
/// pending and the games played, as HTML (drawn as text: typed views of the table's rows and cells
/// cost more on the first page).
fn game_state(game: &NegotiationView) -> Markup {
    let overall = game.overall();
    let pct = if game.optimum > 0 { (overall * 100 / game.optimum).clamp(0, 100) } else { 0 };
    let mut h = markup!(
        "<p class=\"muted\">Game {}</p><table class=\"inventories\"><thead><tr><th></th>",
        game.iteration
    );
    for r in &game.resources {
        h.push(markup!("<th scope=\"col\">{}</th>", r));
    }
    h.push_static("<th scope=\"col\">value</th></tr></thead><tbody>");
    for (player, inv) in &game.inventories {
        let value = game.values.get(player).copied().unwrap_or(0);
        h.push(markup!(
            "<tr data-testid=\"inventory\" data-player=\"{}\" data-quantities=\"{}\" data-value=\"{}\"><th scope=\"row\">{}</th>",
            player,
            format!("{inv:?}"),
            value,
            player
        ));
        for q in inv {
            h.push(markup!("<td>{}</td>", *q));
        }
        h.push(markup!("<td class=\"value\">{}</td></tr>", value));
    }
    let pending = match (&game.pending, &game.end_requested_by) {
        (Some(p), _) => format!(
            "{} offers {} {} for {} {}, waiting for an answer",
            p.by, p.quantity, p.sell_resource, p.quantity, p.buy_resource
        ),
        (None, Some(who)) => {
            format!("{who} asked to end the game; the game ends when the other player ends too")
        }
        (None, None) => "No proposal pending".to_string(),
    };
    h.push(markup!(
        "</tbody></table><div class=\"score\" data-testid=\"overall\" data-overall=\"{}\" data-optimum=\"{}\"><span>Overall {} of the optimum {}</span><span class=\"meter\"><span class=\"fill\" style=\"width:{}%\"></span></span></div><p class=\"pending\" data-testid=\"pending\">{}</p><ol class=\"results\">",
        overall,
        game.optimum,
        overall,
        game.optimum,
        pct,
        pending
    ));
    for r in &game.games {
        let scores: Vec<String> = r.scores.iter().map(|(p, s)| format!("{p} {s}")).collect();
        h.push(markup!(
            "<li data-testid=\"game-result\" data-iteration=\"{}\" data-overall=\"{}\">{}</li>",
            r.iteration,
            r.overall,
            format!(
                "Game {}: {} · overall {} of {} ({})",
                r.iteration,
                scores.join(", "),
                r.overall,
                r.optimum,
                r.reason.replace('_', " ")
            )
        ));
    }
    h.push_static("</ol>");
    h
}

#[component]
fn ActionEntry(action: Arc<ActionRow>) -> impl IntoView {
    // The move in the words the transcript uses, with what the player sent one click away.
    let line = super::words::move_line(&action.player, action.action.as_ref(), action.valid, &action.reason);
    let sent = action.action.as_ref().map_or_else(|| action.raw.clone(), |a| a.to_json());
    let html = markup!(
        "<span class=\"muted\">Turn {} · </span><span data-testid=\"action-line\">{}</span><details class=\"raw\"><summary>sent</summary><code>{}</code></details>",
        action.turn,
        line,
        sent
    );
    view! {
        <li class="action" class:invalid=!action.valid data-testid="action" data-player=action.player.clone() data-valid=action.valid.to_string() markup=html></li>
    }
}

/// The overall score per game, against the optimum, with each game's prompts, as HTML (drawn as
/// text, as the game above).
fn optimizer_chart(rows: &[super::view::OptimizerRow], optimum: i64) -> Markup {
    if rows.is_empty() {
        return Markup::new();
    }
    let top = rows.iter().map(|r| r.overall).max().unwrap_or(0).max(optimum).max(1) as f64;
    let (w, h) = (300.0, 100.0);
    let bw = w / rows.len() as f64;
    let mut out = markup!(
        "<h3>Prompt optimization</h3><figure class=\"chart\" data-testid=\"optimizer-chart\"><svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"Overall score per game against the optimum\">",
        fixed(w, 0),
        fixed(h, 0)
    );
    for (i, r) in rows.iter().enumerate() {
        let bh = (h - 16.0) * r.overall as f64 / top;
        out.push(markup!(
            "<g data-testid=\"optimizer-bar\" data-iteration=\"{}\" data-overall=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#0b5cad\"></rect><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>",
            r.iteration,
            r.overall,
            fixed(i as f64 * bw + 4.0, 1),
            fixed(h - bh, 1),
            fixed(bw - 8.0, 1),
            fixed(bh, 1),
            fixed(i as f64 * bw + bw / 2.0, 1),
            fixed(h - bh - 3.0, 1),
            r.overall
        ));
    }
    let oy = fixed(h - (h - 16.0) * optimum as f64 / top, 1);
    out.push(markup!(
        "<line x1=\"0\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#b3261e\" stroke-dasharray=\"4 3\"></line></svg><figcaption class=\"muted\">Dashed line: the optimum, {}</figcaption></figure>",
        fixed(w, 0),
        oy,
        oy,
        optimum
    ));
    for r in rows {
        out.push(markup!(
            "<details class=\"iteration\" data-testid=\"optimizer-iteration\"><summary>Game {} · overall {}</summary><ul>",
            r.iteration,
            r.overall
        ));
        for (p, text) in &r.prompts {
            out.push(markup!("<li>{}: {}</li>", p, text));
        }
        out.push_static("</ul>");
        if let Some(n) = &r.note {
            out.push(markup!("<p class=\"muted\">{}</p>", n));
        }
        out.push_static("</details>");
    }
    out
}

pub fn panel<V: Shown>(view: RwSignal<V>) -> AnyView {
    untrack(move || negotiation_panel(view).into_any())
}

pub fn settings() -> AnyView {
    let editor = expect_context::<EditorState>();
    let inventory = move |player: usize| {
        let field: &'static str = if player == 0 { "method.inventories[0]" } else { "method.inventories[1]" };
        let label: &'static str =
            if player == 0 { "First player's inventory" } else { "Second player's inventory" };
        text_field(
            label,
            field,
            move |s| {
                with_method!(
                    s,
                    Negotiation,
                    |m| m
                        .inventories
                        .get(player)
                        .map(|inv| inv.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
                        .unwrap_or_default(),
                    String::new()
                )
            },
            move |s, text| {
                let parsed: Result<Vec<i64>, _> =
                    text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::parse).collect();
                match parsed {
                    Ok(values) => {
                        editor.set_input_error(field, None);
                        update_method!(s, Negotiation, |m| {
                            if let Some(inv) = m.inventories.get_mut(player) {
                                *inv = values;
                            }
                        });
                    }
                    Err(_) => {
                        editor.set_input_error(field, Some("write whole numbers separated by commas".into()))
                    }
                }
            },
            false,
        )
    };
    view! {
        {text_field(
            "Resources (comma separated)",
            "method.resources",
            |s| with_method!(s, Negotiation, |m| m.resources.join(", "), String::new()),
            |s, v| {
                update_method!(s, Negotiation, |m| {
                    m.resources = v.split(',').map(|r| r.trim().to_ascii_uppercase()).filter(|r| !r.is_empty()).collect()
                })
            },
            false,
        )}
        <p class="muted">"Quantities in resource order, for the first and second agent."</p>
        <div class="row">{inventory(0)} {inventory(1)}</div>
        <div class="row">
            {number_field(
                "Games (optimizer iterations)",
                "method.iterations",
                |s| with_method!(s, Negotiation, |m| m.iterations, 0),
                |s, v| update_method!(s, Negotiation, |m| m.iterations = v),
            )}
        </div>
        <p class="muted">"The turn limit above applies to each game."</p>
        <FieldMessage field="agents" />
        <FieldMessage field="method.value_scale" />
    }
    .into_any()
}
