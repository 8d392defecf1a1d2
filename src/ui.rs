//! The small kit of page pieces that the app and the methods' panels both draw with, below
//! both of them: setting an element's inner HTML from [`Markup`] and nothing else (here), the
//! editor's form ([`form`]), long lists ([`rows`]), bar charts ([`chart`]) and what the panels share ([`kit`]).

pub mod chart;
pub mod form;
pub mod kit;
pub mod rows;

use leptos::tachys::html::attribute::AttributeValue;
use std::sync::{Arc, Mutex};

use leptos::tachys::html::element::{InnerHtml, InnerHtmlAttribute, InnerHtmlValue};
use leptos::tachys::renderer::types::Element;
use leptos::tachys::view::add_attr::AddAnyAttr;

use crate::markup::Markup;

/// A view passes every attribute's value through `IntoAttributeValue`, which `markup=` receives
/// unchanged: this impl is what lets [`Markup`] (and a function making it) through. Used as an
/// ordinary attribute's value, markup is set as that attribute's text.
impl AttributeValue for Markup {
    type State = <String as AttributeValue>::State;
    type AsyncOutput = Self;
    type Cloneable = Self;
    type CloneableOwned = Self;

    fn html_len(&self) -> usize {
        self.as_str().len()
    }

    fn to_html(self, key: &str, buf: &mut String) {
        AttributeValue::to_html(self.into_string(), key, buf)
    }

    fn to_template(_key: &str, _buf: &mut String) {}

    fn hydrate<const FROM_SERVER: bool>(self, key: &str, el: &Element) -> Self::State {
        AttributeValue::hydrate::<FROM_SERVER>(self.into_string(), key, el)
    }

    fn build(self, el: &Element, key: &str) -> Self::State {
        AttributeValue::build(self.into_string(), el, key)
    }

    fn rebuild(self, key: &str, state: &mut Self::State) {
        AttributeValue::rebuild(self.into_string(), key, state)
    }

    fn into_cloneable(self) -> Self::Cloneable {
        self
    }

    fn into_cloneable_owned(self) -> Self::CloneableOwned {
        self
    }

    fn dry_resolve(&mut self) {}

    async fn resolve(self) -> Self::AsyncOutput {
        self
    }
}

/// What may become an element's inner HTML: [`Markup`], or a function that makes it (redrawn
/// when what it reads changes). Text is not: it has to go through [`Markup`] first. Each is set
/// as the string it holds, so the page has one copy of the code that sets HTML, not one per type.
pub trait MarkupValue {
    type Html: InnerHtmlValue;
    fn into_html(self) -> Self::Html;
}

impl MarkupValue for Markup {
    type Html = String;
    fn into_html(self) -> String {
        self.into_string()
    }
}

type Drawing<T> = Arc<Mutex<dyn FnMut() -> T + Send>>;

/// A function of a view's attribute arrives as this (the view macro wraps it).
impl MarkupValue for Drawing<Markup> {
    type Html = Drawing<String>;
    fn into_html(self) -> Drawing<String> {
        Arc::new(Mutex::new(move || self.lock().map(|mut draw| draw().into_string()).unwrap_or_default()))
    }
}

/// A function named in a view (rather than written there) arrives as itself.
impl<F: FnMut() -> Markup + Send + 'static> MarkupValue for F {
    type Html = Drawing<String>;
    fn into_html(mut self) -> Drawing<String> {
        Arc::new(Mutex::new(move || self().into_string()))
    }
}

/// `markup=…` in a view: the page's one way to set an element's inner HTML (clippy.toml refuses
/// `inner_html` everywhere else).
pub trait MarkupAttribute<T: MarkupValue>: InnerHtmlAttribute<T::Html> {
    #[allow(clippy::disallowed_methods)]
    fn markup(self, value: T) -> <Self as AddAnyAttr>::Output<InnerHtml<T::Html>> {
        self.inner_html(value.into_html())
    }
}

impl<T: MarkupValue, E: InnerHtmlAttribute<T::Html>> MarkupAttribute<T> for E {}
