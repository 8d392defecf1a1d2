//! Each method's panel: the decision it shows beside the stage and its settings in the editor,
//! one file per method, named as the method's folder under `methods/`. `app::methods` picks them
//! through the method registry, so a method the registry lists without a panel does not compile.

pub mod bidding;
pub mod director;
pub mod handoff;
pub mod negotiation;
pub mod random;
pub mod round_robin;
pub mod selector;
