//! Engine benchmarks (not timed tests): they print figures for the README.
//!
//! 1. Engine time per bidding turn with the demo model at zero latency, for 3 and 8 agents and
//!    transcripts of 50 and 2,000 messages. Every prompt carries the whole history (as the seeds
//!    send it), but an agent's next prompt continues its last one in place, so nothing should grow
//!    with the transcript; `history_copy_us` is what one fresh copy of the history would cost.
//!    The benchmark exits with status 1 when a 3-agent turn at 2,000 messages takes more than
//!    twice one at 50.
//! 2. Wall time of one bidding turn with N agents when every call takes L milliseconds, as a
//!    multiple of L (budget: at most 2.2 L for N up to 8; the seeds pay N + 1). The benchmark
//!    exits with status 1 when a turn is over the budget.
//!
//! Run with `cargo bench --bench engine`.

use std::rc::Rc;
use std::time::Instant;

use agora::clock::SystemClock;
use agora::demo::DemoModel;
use agora::engine::Run;
use agora::scenario::{AgentSpec, BiddingSettings, Method, Scenario, Stance};

/// A bidding turn may cost at most this many call latencies (bids at once, then the speech).
const BUDGET_L: f64 = 2.2;
/// A 3-agent turn at 2,000 messages may take at most this many times one at 50.
const BUDGET_GROWTH: f64 = 2.0;

fn scenario(agents: usize, latency_ms: u64) -> Scenario {
    let stances = [Stance::For, Stance::Against, Stance::Neutral];
    let mut s = agora::presets::find("rail-debate").unwrap().scenario();
    s.agents = (0..agents)
        .map(|i| AgentSpec {
            name: format!("Candidate {i}"),
            role: "presidential candidate".into(),
            description: "A candidate with firm views.".into(),
            stance: Some(stances[i % 3]),
            ..Default::default()
        })
        .collect();
    s.method = Method::Bidding(BiddingSettings::default());
    s.max_turns = 10_000;
    s.model.demo.latency_ms = latency_ms;
    s
}

fn prepared(agents: usize, messages: usize, latency_ms: u64) -> Run {
    let s = scenario(agents, latency_ms);
    let clock = Rc::new(SystemClock::default());
    let model = Rc::new(DemoModel::new(&s, clock.clone()));
    let mut run = Run::new(s, model, clock).unwrap();
    futures::executor::block_on(run.step()); // the opening
    for i in 1..messages {
        let speaker = format!("Candidate {}", i % agents);
        run.inject(&speaker, "*taps the podium* The data is plain: high speed rail will create jobs and pay for itself, and anyone who says otherwise has not read the numbers.");
    }
    run
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    println!("Engine time per bidding turn (demo model, zero latency; includes building every prompt)");
    println!(
        "{:>7} {:>10} {:>12} {:>12} {:>16} {:>10}",
        "agents", "messages", "median_us", "p95_us", "history_copy_us", "x_the_50"
    );
    let mut growth = Vec::new();
    for agents in [3, 8] {
        let mut at_50 = f64::NAN;
        for messages in [50, 2000] {
            let mut run = prepared(agents, messages, 0);
            let mut times = Vec::new();
            for _ in 0..120 {
                let t = Instant::now();
                futures::executor::block_on(run.step());
                times.push(t.elapsed().as_secs_f64() * 1e6);
            }
            times.sort_by(f64::total_cmp);
            // What continuing a prompt in place saves on each call: one fresh copy of the history.
            let history = run.transcript().joined().to_string();
            let mut copies = Vec::new();
            for _ in 0..60 {
                let t = Instant::now();
                let copy = std::hint::black_box(history.clone());
                drop(copy);
                copies.push(t.elapsed().as_secs_f64() * 1e6);
            }
            copies.sort_by(f64::total_cmp);
            let median = percentile(&times, 0.5);
            if messages == 50 {
                at_50 = median;
            }
            println!(
                "{agents:>7} {messages:>10} {median:>12.1} {:>12.1} {:>16.1} {:>10.2}",
                percentile(&times, 0.95),
                percentile(&copies, 0.5),
                median / at_50
            );
            if messages == 2000 {
                growth.push((agents, median / at_50));
            }
        }
    }
    let grew = growth.iter().any(|&(agents, x)| agents == 3 && x > BUDGET_GROWTH);

    let latency = 100u64;
    println!(
        "\nWall time of one bidding turn at L = {latency} ms per call (budget: {BUDGET_L} L, checked; the seeds pay N + 1)"
    );
    println!("{:>7} {:>10} {:>12}", "agents", "wall_ms", "multiple_of_L");
    let mut over_budget = false;
    for agents in [2, 3, 4, 8] {
        let mut run = prepared(agents, 10, latency);
        let mut walls = Vec::new();
        for _ in 0..3 {
            let t = Instant::now();
            futures::executor::block_on(run.step());
            walls.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        walls.sort_by(f64::total_cmp);
        let median = walls[1];
        println!("{agents:>7} {median:>10.1} {:>12.2}", median / latency as f64);
        over_budget |= median > BUDGET_L * latency as f64;
    }
    if over_budget {
        eprintln!("a bidding turn took more than {BUDGET_L} L: the bids are not all in flight at once");
    }
    if grew {
        eprintln!(
            "a 3-agent turn at 2,000 messages took more than {BUDGET_GROWTH} times one at 50: the engine's time grows with the transcript"
        );
    }
    if over_budget || grew {
        std::process::exit(1);
    }
}
