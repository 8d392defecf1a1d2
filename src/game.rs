//! Games the agents play. For now seed 001's trading game.

pub mod negotiation;
