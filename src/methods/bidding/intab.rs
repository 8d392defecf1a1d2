//! The form the model inside the tab holds a bid to: `<n>` on the seed's scale.

use crate::reply::{Reply, BID_RANGE};
use crate::model::{ChatRequest, Purpose};

pub fn reply(request: &ChatRequest) -> Option<Reply> {
    (request.purpose == Purpose::Bid).then_some(Reply::Number { lo: BID_RANGE.0, hi: BID_RANGE.1 })
}
