//! `agora tournament`: every method on every seed, judged pairwise in both orders, rated by
//! Bradley–Terry; on the demo model and on the local LLM server, whole and in shards merged.

mod common;

use agora::tournament::Tournament;
use common::Server;

fn agora(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    common::agora(args, Some(dir), Some("k"))
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agora-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const METHODS: &str = "bidding,director,selector,round_robin,random";

#[test]
fn five_methods_over_ten_seeds_on_the_demo_model_in_four_shards_merge_into_the_one_machine_result() {
    let dir = temp("tournament");
    let base = ["tournament", "preset:rail-debate", "--methods", METHODS, "--seeds", "1..10"];
    let (code, stdout, stderr) = agora(&[&base[..], &["--out", "whole.csv"]].concat(), &dir);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout
            .starts_with("Leaderboard (judged by the demo judge (text statistics, no model); seeds 1..10):"),
        "{stdout}"
    );
    let whole = std::fs::read_to_string(dir.join("whole.csv")).unwrap();
    let t = Tournament::read_csv(&whole).unwrap();
    // Ten pairs of five methods on each of ten seeds, four dimensions each.
    assert_eq!(t.rows.len(), 10 * 10 * 4);
    assert_eq!(t.methods().len(), 5);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("whole.json")).unwrap()).unwrap();
    assert_eq!(json["standings"].as_array().unwrap().len(), 5);
    for s in json["standings"].as_array().unwrap() {
        assert!(
            s["low"].as_f64() <= s["rating"].as_f64() && s["rating"].as_f64() <= s["high"].as_f64(),
            "{s}"
        );
        // Each method met four others on ten seeds.
        assert_eq!(
            s["wins"].as_u64().unwrap() + s["ties"].as_u64().unwrap() + s["losses"].as_u64().unwrap(),
            40
        );
    }

    for k in 0..4 {
        let (code, stdout, stderr) = agora(
            &[&base[..], &["--shard", &format!("{k}/4"), "--out", &format!("shard-{k}.csv")]].concat(),
            &dir,
        );
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.starts_with(&format!("shard {k} of 4: merge the shards")), "{stdout}");
    }
    let (code, _, stderr) = agora(
        &[
            "tournament",
            "merge",
            "shard-2.csv",
            "shard-0.csv",
            "shard-3.csv",
            "shard-1.csv",
            "--out",
            "merged.csv",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("merged.csv")).unwrap(), whole);
    assert_eq!(
        std::fs::read_to_string(dir.join("merged.json")).unwrap(),
        std::fs::read_to_string(dir.join("whole.json")).unwrap()
    );
    // A shard left out is named.
    let (code, _, stderr) =
        agora(&["tournament", "merge", "shard-0.csv", "shard-1.csv", "--out", "part.csv"], &dir);
    assert_eq!(code, 2);
    assert!(stderr.contains("are missing"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tournament_on_the_local_llm_server_is_judged_in_both_orders_and_reports_the_agreement() {
    let (dir, code, stdout, stderr) = judged_by_server("tournament-server", &[], "1..2");
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("judged by custom judge-x"), "{stderr}");
    let t = Tournament::read_csv(&std::fs::read_to_string(dir.join("t.csv")).unwrap()).unwrap();
    assert_eq!(t.rows.len(), 2 * 3 * 4);
    assert!(t.rows.iter().all(|r| r.judged.first.is_some() && r.judged.second.is_some()));
    // Where the two orders disagree the outcome is a tie, and the rate of agreement is printed.
    for r in &t.rows {
        if r.judged.first != r.judged.second {
            assert_eq!(r.judged.outcome(), Some(agora::judge::pairwise::Side::Tie));
        }
    }
    // Pairs that said the same words are not asked, so not in the agreement.
    let asked = t.rows.iter().filter(|r| r.judged.agreed().is_some()).count();
    assert_eq!(asked, t.rows.iter().filter(|r| !r.judged.identical).count());
    let agreed = t.rows.iter().filter(|r| r.judged.agreed() == Some(true)).count();
    let shown = format!(
        "agreed on {} % of {asked} judgements",
        agora::text::fixed(agreed as f64 * 100.0 / asked as f64, 1)
    );
    assert!(stdout.contains(&shown), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_that_fails_leaves_its_pairs_not_judged_and_the_tournament_goes_on() {
    let dir = temp("tournament-failed");
    // The scripted model answers the round robin's speeches and nothing else: the bidding runs
    // fail at their first bid.
    let speeches: Vec<serde_json::Value> = (0..20)
        .flat_map(|i| {
            ["Donald Trump", "Kanye West", "Elizabeth Warren"].map(|a| {
                serde_json::json!({"agent": a, "purpose": "speak", "content": format!("Point {i} from {a}.")})
            })
        })
        .collect();
    std::fs::write(dir.join("script.json"), serde_json::Value::Array(speeches).to_string()).unwrap();
    let mut scenario = agora::presets::find("rail-debate").unwrap().scenario();
    scenario.opening.specify_topic = false;
    scenario.opening.describe_characters = false;
    std::fs::write(dir.join("debate.json"), serde_json::to_string(&scenario).unwrap()).unwrap();
    let (code, stdout, stderr) = agora(
        &[
            "tournament",
            "debate.json",
            "--methods",
            "round_robin,bidding,random",
            "--seeds",
            "1..2",
            "--turns",
            "2",
            "--model",
            "script:script.json",
            "--out",
            "t.csv",
            "--events-dir",
            "logs",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("seed 1, bidding: the run failed, so its pairs are not judged"), "{stderr}");
    let t = Tournament::read_csv(&std::fs::read_to_string(dir.join("t.csv")).unwrap()).unwrap();
    assert_eq!(t.rows.len(), 2 * 3 * 4, "every pair has its rows");
    for r in &t.rows {
        let with_bidding = r.a == "bidding" || r.b == "bidding";
        assert_eq!(r.judged.outcome().is_none(), with_bidding, "{r:?}");
    }
    assert!(stdout.contains("Leaderboard"), "{stdout}");
    // The logs of the runs that finished are kept.
    assert!(dir.join("logs/seed-1-round_robin.jsonl").exists());
    assert!(!dir.join("logs/seed-1-bidding.jsonl").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tournament_shards_run_as_a_slurm_array_merge_into_the_one_machine_result() {
    let dir = temp("tournament-slurm");
    let _ = std::fs::remove_dir_all(dir.join("cluster"));
    let Some(cluster) = common::Cluster::start(&dir.join("cluster"), "the tournament's real Slurm array")
    else {
        return;
    };
    let base = ["tournament", "preset:rail-debate", "--methods", METHODS, "--seeds", "1..8", "--turns", "4"];
    let (code, _, stderr) = agora(&[&base[..], &["--out", "whole.csv"]].concat(), &dir);
    assert_eq!(code, 0, "{stderr}");
    let job = dir.join("job.sh");
    std::fs::write(
        &job,
        format!(
            "#!/bin/bash\ncd {}\nexec {} {} --shard auto --out shard-$SLURM_ARRAY_TASK_ID.csv\n",
            dir.display(),
            env!("CARGO_BIN_EXE_agora"),
            base.join(" ")
        ),
    )
    .unwrap();
    let out = std::process::Command::new("sbatch")
        .args([
            "--array=0-3",
            "--wait",
            &format!("--output={}/task-%a.out", dir.display()),
            job.to_str().unwrap(),
        ])
        .env("SLURM_CONF", &cluster.conf)
        .output()
        .unwrap();
    assert!(out.status.success(), "sbatch: {}", String::from_utf8_lossy(&out.stderr));
    for k in 0..4 {
        let log = std::fs::read_to_string(dir.join(format!("task-{k}.out"))).unwrap_or_default();
        assert!(log.contains(&format!("shard {k} of 4")), "task {k} said: {log}");
    }
    let (code, _, stderr) = agora(
        &[
            "tournament",
            "merge",
            "shard-0.csv",
            "shard-1.csv",
            "shard-2.csv",
            "shard-3.csv",
            "--out",
            "merged.csv",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{stderr}");
    for file in ["csv", "json"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(format!("merged.{file}"))).unwrap(),
            std::fs::read_to_string(dir.join(format!("whole.{file}"))).unwrap(),
            "the merged {file} is the one-machine {file}"
        );
    }
    drop(cluster);
}

/// A tournament of three methods on `seeds` judged by the local LLM server started with `faults`.
fn judged_by_server(name: &str, faults: &[&str], seeds: &str) -> (std::path::PathBuf, i32, String, String) {
    let dir = temp(name);
    let server = Server::start(faults);
    let (code, stdout, stderr) = agora(
        &[
            "tournament",
            "preset:rail-debate",
            "--methods",
            "round_robin,random,bidding",
            "--seeds",
            seeds,
            "--turns",
            "3",
            "--judge-provider",
            "custom",
            "--judge-model",
            "judge-x",
            "--judge-base-url",
            &server.url,
            "--out",
            "t.csv",
        ],
        &dir,
    );
    (dir, code, stdout, stderr)
}

#[test]
fn a_judge_that_answers_garbage_leaves_every_pair_unjudged_says_so_and_ends_with_status_1() {
    let (dir, code, stdout, stderr) =
        judged_by_server("tournament-garbage", &["--fault", "unreadablex100"], "23");
    assert_eq!(code, 1, "{stderr}");
    // On seed 23 at three turns, random and bidding say the same words: a tie without a call. The
    // two other pairs are asked in two orders, three attempts each: two retries an order.
    assert!(
        stderr.contains("seed 23: 3 methods played; 1 of 3 pairs judged (1 word for word the same: a tie each, the judge not asked); 8 replies asked again, 4 orders of asking lost; 2 pairs not judged"),
        "{stderr}"
    );
    assert!(
        stderr.contains("round_robin against random: the judge's verdicts could not be read"),
        "{stderr}"
    );
    assert!(stdout.contains("2 pairs of methods could not be judged"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("t.json")).unwrap()).unwrap();
    assert_eq!(
        (
            json["judged"].as_u64(),
            json["unjudged"].as_u64(),
            json["retries"].as_u64(),
            json["identical"].as_u64()
        ),
        (Some(0), Some(2), Some(8), Some(1))
    );
    // No preference at all: the ratings are equal, and the leaderboard says so instead of ranking.
    assert!(stdout.contains("Every rating is the same"), "{stdout}");
    assert!(stdout.lines().filter(|l| l.starts_with("  =  ")).count() == 3, "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn one_order_lost_to_unreadable_replies_is_said_counted_and_ends_with_status_1() {
    // The first three replies are unreadable: the first pair's first order is lost.
    let (dir, code, stdout, stderr) =
        judged_by_server("tournament-third", &["--fault", "unreadablex3"], "23");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("seed 23: 3 methods played; 2 of 3 pairs judged (1 word for word the same: a tie each, the judge not asked); 2 replies asked again, 1 order of asking lost; 1 pair not judged"),
        "{stderr}"
    );
    assert!(stderr.contains("round_robin against random: one order's verdict could not be read"), "{stderr}");
    assert!(stdout.contains("1 pair of methods could not be judged"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_judge_that_cannot_be_reached_is_named_in_the_terminals_words() {
    let dir = temp("tournament-unreachable");
    // A port that was open a moment ago and is closed now: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let (code, _, stderr) = agora(
        &[
            "tournament",
            "preset:rail-debate",
            "--methods",
            "round_robin,random",
            "--seeds",
            "1",
            "--turns",
            "2",
            "--judge-provider",
            "custom",
            "--judge-model",
            "judge-x",
            "--judge-base-url",
            &url,
            "--out",
            "t.csv",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(&format!("Could not reach {url}")), "{stderr}");
    assert!(!stderr.contains("CORS") && !stderr.contains("this page"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn conversations_word_for_word_the_same_are_ties_without_asking_the_judge() {
    let dir = temp("tournament-same");
    let (code, stdout, stderr) = agora(
        &[
            "tournament",
            "preset:rail-debate",
            "--methods",
            METHODS,
            "--seeds",
            "1..10",
            "--turns",
            "4",
            "--out",
            "t.csv",
            "--events-dir",
            "logs",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{stderr}");
    let t = Tournament::read_csv(&std::fs::read_to_string(dir.join("t.csv")).unwrap()).unwrap();
    let log = |seed: u64, m: &str| -> Vec<(String, String)> {
        let text = std::fs::read_to_string(dir.join(format!("logs/seed-{seed}-{m}.jsonl"))).unwrap();
        common::messages(&agora::events::from_json_lines(&text).unwrap())
    };
    let mut same = 0;
    for r in t.rows.iter().filter(|r| r.dimension == "overall") {
        let alike = log(r.seed, &r.a) == log(r.seed, &r.b);
        assert_eq!(r.judged.identical, alike, "seed {} {} against {}", r.seed, r.a, r.b);
        if alike {
            same += 1;
            assert_eq!(r.judged.outcome(), Some(agora::judge::pairwise::Side::Tie));
            assert_eq!(r.judged.agreed(), None, "not asked, so not in the agreement");
        }
    }
    assert!(same > 0, "some methods say the same at four turns");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("t.json")).unwrap()).unwrap();
    assert_eq!(json["identical"].as_u64(), Some(same));
    assert_eq!(json["judged"].as_u64(), Some((100 - same) * 4));
    assert!(
        stdout.contains(&format!("{same} pairs of conversations were word for word the same")),
        "{stdout}"
    );
    assert!(stderr.contains("word for word the same: a tie each, the judge not asked"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
