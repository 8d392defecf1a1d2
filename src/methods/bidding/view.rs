//! Bidding's part of the run on screen: a board per turn of each agent's bid and the winner,
//! folded from its `bid` and `speaker_selected` events (the view calls these as it applies them).

use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidCell {
    pub agent: String,
    pub value: i64,
    pub raw: String,
    pub attempts: u32,
    pub defaulted: bool,
    /// Why the last attempt came out as it did: its refusal, if refused, and its reasoning.
    pub why: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidTurn {
    pub turn: u32,
    pub bids: Vec<BidCell>,
    pub winner: Option<String>,
    pub tie: bool,
    pub tied: Vec<String>,
    /// The agent the class gave the floor to instead of the winner (who spoke), and its note.
    pub given: Option<(String, String)>,
}

impl BidTurn {
    /// Whether these bids never chose a speaker because the run ended first (Stop during them).
    pub fn cut_short(&self, finished: bool) -> bool {
        finished && self.winner.is_none() && self.given.is_none()
    }
}

/// Adds a bid to its turn's board (the turn's first bid opens the board).
pub fn add_bid(boards: &mut Vec<Arc<BidTurn>>, turn: u32, cell: BidCell) {
    match boards.last_mut().filter(|b| b.turn == turn) {
        Some(board) => Arc::make_mut(board).bids.push(cell),
        None => boards.push(Arc::new(BidTurn { turn, bids: vec![cell], winner: None, tie: false, tied: Vec::new(), given: None })),
    }
}

/// Marks who won the turn's board and whom the seeded draw chose among (a turn with no bids has
/// no board).
pub fn mark_winner(boards: &mut [Arc<BidTurn>], turn: u32, agent: &str, tie: bool, tied: &[String]) {
    if let Some(board) = boards.last_mut().filter(|b| b.turn == turn) {
        let board = Arc::make_mut(board);
        board.winner = Some(agent.to_string());
        board.tie = tie;
        board.tied = tied.to_vec();
    }
}

/// Marks that the class gave the turn's floor to someone (the bids and the winner stay shown).
pub fn mark_given(boards: &mut [Arc<BidTurn>], turn: u32, agent: &str, note: String) {
    if let Some(board) = boards.last_mut().filter(|b| b.turn == turn) {
        Arc::make_mut(board).given = Some((agent.to_string(), note));
    }
}

/// Bids per agent across the last `turns` boards, for the small history chart: for each agent,
/// its bid in each of those turns, oldest first (0 where it did not bid).
pub fn bid_history(boards: &[Arc<BidTurn>], agents: Vec<String>, turns: usize) -> Vec<(String, Vec<i64>)> {
    let recent = &boards[boards.len().saturating_sub(turns)..];
    agents
        .into_iter()
        .map(|agent| {
            let values =
                recent.iter().map(|t| t.bids.iter().find(|b| b.agent == agent).map_or(0, |b| b.value)).collect();
            (agent, values)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bids_are_cut_short_only_when_the_run_ended_before_they_chose() {
        let mut board = BidTurn { turn: 5, bids: Vec::new(), winner: None, tie: false, tied: Vec::new(), given: None };
        assert!(!board.cut_short(false), "still coming in");
        assert!(board.cut_short(true), "stopped during them");
        board.winner = Some("Ada".into());
        assert!(!board.cut_short(true), "a speaker was chosen");
        board.winner = None;
        board.given = Some(("Ada".into(), "given".into()));
        assert!(!board.cut_short(true), "the class gave the floor");
    }
}
