//! A person's bid: a whole number on the seed's scale, written `<n>` as the bid prompt asks.

use crate::reply::BID_RANGE;
use crate::model::{ChatRequest, Purpose};
use crate::form::Form;

pub fn form(request: &ChatRequest) -> Option<Form> {
    (request.purpose == Purpose::Bid).then_some(Form::Number { lo: BID_RANGE.0, hi: BID_RANGE.1 })
}
