//! Which seeds a batch runs, and which of them one shard of it takes.

/// The seeds of a batch, in increasing order, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeds(pub(super) Vec<u64>);

/// More seeds than this in one batch is almost surely a typo (`1..1000000000`).
const MAX_SEEDS: u64 = 1_000_000;

impl Seeds {
    /// Reads `1..100` (both ends included), `7`, or a comma list of both (`1..10,20,30..39`).
    pub fn parse(text: &str) -> Result<Seeds, String> {
        // Ordered and each once as they are read (a set sorts without the standard library's
        // sorting code, which the page would carry only for this).
        let mut seeds = std::collections::BTreeSet::new();
        for part in text.split(',').map(str::trim) {
            let (from, to) = match part.split_once("..") {
                Some((a, b)) => (number(a, text)?, number(b.trim_start_matches('='), text)?),
                None => {
                    let n = number(part, text)?;
                    (n, n)
                }
            };
            if to < from {
                return Err(format!("seeds \"{part}\" run backwards: write the smaller seed first"));
            }
            if (to - from) as u128 + seeds.len() as u128 >= MAX_SEEDS as u128 {
                return Err(format!("seeds \"{text}\" are more than {MAX_SEEDS} runs"));
            }
            seeds.extend(from..=to);
        }
        Ok(Seeds(seeds.into_iter().collect()))
    }

    pub fn list(&self) -> &[u64] {
        &self.0
    }

    /// The seeds `shard` takes: every `count`-th seed from the `index`-th (counting from 0).
    pub fn shard(&self, shard: Shard) -> Seeds {
        Seeds(self.0.iter().skip(shard.index as usize).step_by(shard.count as usize).copied().collect())
    }
}

impl std::fmt::Display for Seeds {
    /// The shortest spelling: consecutive seeds as one range.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        let mut i = 0;
        while i < self.0.len() {
            let start = self.0[i];
            let mut end = start;
            while i + 1 < self.0.len() && self.0[i + 1] == end + 1 {
                i += 1;
                end += 1;
            }
            parts.push(if end == start { start.to_string() } else { format!("{start}..{end}") });
            i += 1;
        }
        f.write_str(&parts.join(","))
    }
}

fn number(text: &str, whole: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("--seeds takes 1..100, 7 or 1..10,20; \"{whole}\" is none of these"))
}

/// One part of a batch split over several machines: shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N` (K from 0 to N-1, as array indexes count), or `auto` / `auto/N`: the index
    /// (and for Slurm the count) from the environment a scheduler's array job sets, read through
    /// `env` so tests need not set the process's own.
    pub fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        if let Some(rest) = text.strip_prefix("auto") {
            let given = match rest.strip_prefix('/') {
                Some(n) => Some(count(n)?),
                None if rest.is_empty() => None,
                None => return Err(format!("--shard takes K/N, auto or auto/N, not \"{text}\"")),
            };
            return Shard::from_env(given, env);
        }
        let Some((k, n)) = text.split_once('/') else {
            return Err(format!("--shard takes K/N (for example 0/4), auto or auto/N, not \"{text}\""));
        };
        let index: u32 = k.trim().parse().map_err(|_| format!("--shard {text}: K must be a whole number"))?;
        Shard::checked(index, count(n)?)
    }

    fn checked(index: u32, count: u32) -> Result<Shard, String> {
        if index >= count {
            return Err(format!(
                "shard {index} of {count} does not exist: shards count from 0 to {}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Slurm (`SLURM_ARRAY_TASK_ID` from `SLURM_ARRAY_TASK_MIN` in steps of
    /// `SLURM_ARRAY_TASK_STEP`, `SLURM_ARRAY_TASK_COUNT`),
    /// a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`) or AWS Batch
    /// (`AWS_BATCH_JOB_ARRAY_INDEX`); the last two do not say how many shards there are, so
    /// `auto/N` gives it.
    fn from_env(given: Option<u32>, env: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let read = |name: &str| -> Result<Option<u32>, String> {
            match env(name) {
                None => Ok(None),
                Some(v) => {
                    v.trim().parse().map(Some).map_err(|_| format!("{name} is \"{v}\", not a whole number"))
                }
            }
        };
        if let Some(id) = read("SLURM_ARRAY_TASK_ID")? {
            let min = read("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = read("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let count = match (given, read("SLURM_ARRAY_TASK_COUNT")?) {
                (Some(n), _) | (None, Some(n)) => n,
                (None, None) => return Err("SLURM_ARRAY_TASK_COUNT is not set: use --shard auto/N".into()),
            };
            // `--array=0-6:2` runs tasks 0, 2, 4 and 6: shards 0 to 3.
            return match id.checked_sub(min).filter(|d| d % step == 0) {
                Some(offset) => Shard::checked(offset / step, count),
                None => Err(format!(
                    "SLURM_ARRAY_TASK_ID={id}, SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_STEP={step} and \
                     SLURM_ARRAY_TASK_COUNT={count} make no shard: {id} is not {min} plus a whole number of \
                     steps of {step} (for an array listed by hand, give each task --shard K/N)"
                )),
            };
        }
        for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
            if let Some(index) = read(name)? {
                let count = given
                    .ok_or(format!("{name} is set, but not how many shards there are: use --shard auto/N"))?;
                return Shard::checked(index, count);
            }
        }
        Err("--shard auto found no array index: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, \
             AWS_BATCH_JOB_ARRAY_INDEX is set"
            .into())
    }
}

fn count(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("the number of shards must be a whole number from 1, not \"{text}\"")),
    }
}
