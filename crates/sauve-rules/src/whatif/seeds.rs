//! The seed each run of a forecast gets, and the seeds of a batch split
//! into shards.

use std::ops::Range;

/// SplitMix64's output function: a well-mixed 64-bit value from any input.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of run `index` of a forecast from a game of seed `game`:
/// SplitMix64 of `game + (index + 1) * 0x9e3779b97f4a7c15`. It depends on
/// nothing else (not the thread a run lands on, not how many runs there
/// are), so the same forecast gives the same runs anywhere.
pub fn run_seed(game: u64, index: u64) -> u64 {
    mix(game.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
}

/// The seed of continuation `k` that the planning AI plays for side
/// `side` in turn `turn` of a game of seed `game`: made from those alone
/// (never drawn from the game's dice), so a game and its replay weigh the
/// same continuations.
pub fn foresight_seed(game: u64, turn: u32, side: usize, k: u32) -> u64 {
    let at = (u64::from(turn) << 40) ^ ((side as u64 & 0xff) << 32) ^ u64::from(k);
    mix(run_seed(game ^ 0x6861_7264_5f61_6931, at))
}

/// Shard `k` of `n` of the seeds `range`: contiguous blocks in order, the
/// first `len % n` shards one seed longer, so the shards partition the
/// range exactly (a shard may be empty when there are more shards than
/// seeds). `None` when `k >= n` or `n == 0`.
pub fn shard(range: Range<u64>, k: u64, n: u64) -> Option<Range<u64>> {
    if n == 0 || k >= n {
        return None;
    }
    let len = range.end.saturating_sub(range.start);
    let (base, extra) = (len / n, len % n);
    let start = range.start + k * base + k.min(extra);
    let size = base + u64::from(k < extra);
    Some(start..start + size)
}

/// Reads `A..B` (B left out) or `A..=B` (B played).
pub fn parse_range(text: &str) -> Result<Range<u64>, String> {
    let bad = || format!("--seeds {text:?}: expected A..B (B left out) or A..=B, with A and B whole numbers");
    let (a, b, inclusive) = if let Some((a, b)) = text.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = text.split_once("..") {
        (a, b, false)
    } else {
        return Err(bad());
    };
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    let end = if inclusive { b.checked_add(1).ok_or_else(bad)? } else { b };
    if end <= a {
        return Err(format!("--seeds {text:?}: the range is empty"));
    }
    Ok(a..end)
}

/// Reads `K/N` (K counted from 0).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {text:?}: expected K/N, shard K (from 0) of N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || k >= n {
        return Err(format!("--shard {text:?}: K must be 0..N-1 and N at least 1"));
    }
    Ok((k, n))
}

/// The shard a scheduler gives this process, read from its environment
/// (`var` looks a name up): a Slurm job array's `SLURM_ARRAY_TASK_ID`
/// (less `SLURM_ARRAY_TASK_MIN`, so `--array=1-4` works too) of
/// `SLURM_ARRAY_TASK_COUNT`, or a Kubernetes Indexed Job's
/// `JOB_COMPLETION_INDEX` of `JOB_COMPLETIONS` (which the manifest sets).
/// `Ok(None)` when neither scheduler's variables are there.
pub fn shard_from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<(u64, u64)>, String> {
    let number = |name: &str| -> Result<Option<u64>, String> {
        var(name)
            .map(|v| v.trim().parse::<u64>().map_err(|_| format!("{name}={v:?} is not a whole number")))
            .transpose()
    };
    let found = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let count =
            number("SLURM_ARRAY_TASK_COUNT")?.ok_or("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")?;
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        Some((id.checked_sub(min).ok_or("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")?, count, "Slurm"))
    } else if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = number("JOB_COMPLETIONS")?.ok_or(
            "JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not (set it in the Job's env to its completions)",
        )?;
        Some((index, count, "Kubernetes"))
    } else {
        None
    };
    match found {
        Some((k, n, who)) if n == 0 || k >= n => Err(format!("{who} gives task {k} of {n}: not a shard")),
        Some((k, n, _)) => Ok(Some((k, n))),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_a_range_exactly() {
        for (range, n) in [(0..10_000u64, 4u64), (5..12, 3), (0..3, 5), (100..101, 1), (7..7, 2)] {
            let mut next = range.start;
            for k in 0..n {
                let s = shard(range.clone(), k, n).expect("a shard");
                assert_eq!(s.start, next, "{range:?} {k}/{n}: contiguous");
                next = s.end;
                let len = range.end - range.start;
                assert!(s.end - s.start <= len / n + 1 && s.end - s.start >= len / n, "{range:?} {k}/{n}: balanced");
            }
            assert_eq!(next, range.end.max(range.start), "{range:?} /{n}: the last shard ends the range");
        }
        assert_eq!(shard(0..10, 4, 4), None);
        assert_eq!(shard(0..10, 0, 0), None);
        assert_eq!(shard(0..10, 0, 4), Some(0..3));
        assert_eq!(shard(0..10, 3, 4), Some(8..10));
    }

    #[test]
    fn run_seeds_differ_by_run_and_by_game() {
        let a: Vec<u64> = (0..1000).map(|i| run_seed(2024, i)).collect();
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 1000, "no two runs share a seed");
        assert_ne!(run_seed(2024, 0), run_seed(2025, 0));
        assert_eq!(run_seed(2024, 7), a[7], "a run's seed is its own, whatever else runs");
    }

    #[test]
    fn ranges_and_shards_read_from_the_command_line() {
        assert_eq!(parse_range("0..10000"), Ok(0..10_000));
        assert_eq!(parse_range("1..=4"), Ok(1..5));
        assert!(parse_range("5..5").unwrap_err().contains("empty"));
        assert!(parse_range("a..b").is_err());
        assert!(parse_range("7").is_err());
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("1").is_err());
    }

    #[test]
    fn schedulers_give_their_shard_through_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
        };
        let slurm = env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_COUNT", "4")]);
        assert_eq!(shard_from_env(slurm), Ok(Some((3, 4))));
        let from_one =
            env(&[("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "1")]);
        assert_eq!(shard_from_env(from_one), Ok(Some((3, 4))));
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0"), ("JOB_COMPLETIONS", "2")]);
        assert_eq!(shard_from_env(k8s), Ok(Some((0, 2))));
        assert!(shard_from_env(env(&[("JOB_COMPLETION_INDEX", "0")])).unwrap_err().contains("JOB_COMPLETIONS"));
        assert!(shard_from_env(env(&[("SLURM_ARRAY_TASK_ID", "x"), ("SLURM_ARRAY_TASK_COUNT", "4")])).is_err());
        assert_eq!(shard_from_env(env(&[])), Ok(None));
    }
}
