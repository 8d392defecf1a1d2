//! Round robin asks the model nothing but speech, which is free text.

use crate::reply::Reply;
use crate::model::ChatRequest;

pub fn reply(_request: &ChatRequest) -> Option<Reply> {
    None
}
