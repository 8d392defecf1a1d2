//! What the editor's edits of a scenario's cast do to its seats: a seat taken or left, an agent
//! renamed with its seat, and seats dropped whose agent has gone. Plain functions on the
//! scenario, so the page's edits are the ones these tests pin down.

use super::Scenario;

impl Scenario {
    /// Takes (`on`) or leaves the seat of `name`; a seat taken again moves to the end.
    pub fn take_seat(&mut self, name: String, on: bool) {
        self.seats.retain(|n| *n != name);
        if on {
            self.seats.push(name);
        }
    }

    /// Drops seats whose agent has gone or been renamed, so a seat never points at nobody.
    pub fn keep_seats(&mut self) {
        let names = self.seat_names();
        self.seats.retain(|n| names.contains(n));
    }

    /// Renames agent `index`, its seat with it; nothing when there is no such agent.
    pub fn rename_agent(&mut self, index: usize, name: String) {
        let Some(agent) = self.agents.get_mut(index) else { return };
        let old = std::mem::replace(&mut agent.name, name.clone());
        for seat in self.seats.iter_mut().filter(|n| **n == old) {
            *seat = name.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::presets;

    fn debate() -> crate::scenario::Scenario {
        presets::find("rail-debate").expect("the rail debate").scenario()
    }

    #[test]
    fn a_seat_is_taken_once_and_left_again() {
        let mut s = debate();
        let [a, b] = [s.agents[0].name.clone(), s.agents[1].name.clone()];
        s.take_seat(a.clone(), true);
        s.take_seat(b.clone(), true);
        s.take_seat(a.clone(), true);
        assert_eq!(s.seats, [b.clone(), a.clone()], "taken again, it is not there twice");
        s.take_seat(b, false);
        assert_eq!(s.seats, [a]);
    }

    #[test]
    fn renaming_an_agent_moves_its_seat_and_a_removed_agent_loses_it() {
        let mut s = debate();
        let a = s.agents[0].name.clone();
        s.take_seat(a, true);
        s.rename_agent(0, "Ada".into());
        assert_eq!(s.agents[0].name, "Ada");
        assert_eq!(s.seats, ["Ada"]);
        s.rename_agent(99, "Nobody".into());
        assert_eq!(s.seats, ["Ada"], "no such agent: nothing changes");
        s.agents.remove(0);
        s.keep_seats();
        assert!(s.seats.is_empty(), "the seat of an agent that has gone goes with it");
    }

    #[test]
    fn the_selectors_seat_stays_only_while_the_method_is_the_selector() {
        let mut s = presets::find("town-hall-selector").expect("the town hall").scenario();
        let selector = crate::methods::selector::settings::SELECTOR.to_string();
        s.take_seat(selector.clone(), true);
        s.keep_seats();
        assert_eq!(s.seats, [selector]);
        s.method = debate().method;
        s.keep_seats();
        assert!(s.seats.is_empty());
    }
}
