//! `--sweep` and `--values`: which parameter a bench varies and the values
//! it takes.

use std::fmt;
use std::str::FromStr;

/// A parameter `dxjit bench --sweep` varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Worker threads: 1 to every core by default.
    Threads,
    /// Vectors of four lanes per register component: every count the JIT
    /// supports by default.
    K,
    /// Compile tiers; not swept yet (`--tier` picks one), so an error.
    Tier,
}

impl Sweep {
    /// The name `--sweep` takes and tables and JSON print.
    pub fn name(self) -> &'static str {
        match self {
            Sweep::Threads => "threads",
            Sweep::K => "k",
            Sweep::Tier => "tier",
        }
    }
}

impl fmt::Display for Sweep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Sweep {
    type Err = String;

    fn from_str(s: &str) -> Result<Sweep, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "threads" => Ok(Sweep::Threads),
            "k" => Ok(Sweep::K),
            "tier" => Ok(Sweep::Tier),
            other => Err(format!(
                "unknown sweep `{other}`: expected threads, k or tier"
            )),
        }
    }
}

/// Why `--sweep tier` cannot run.
pub const TIER_UNAVAILABLE: &str = "--sweep tier is not available yet: run once with \
--tier first and once with --tier top";

/// The values of `--values`: positive integers, comma-separated, each a
/// number or an inclusive range `a-b`, e.g. `1,2,4` or `1-4` or `1-2,8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepValues(pub Vec<usize>);

impl FromStr for SweepValues {
    type Err = String;

    fn from_str(s: &str) -> Result<SweepValues, String> {
        let mut values = Vec::new();
        for part in s.split(',').map(str::trim) {
            let number = |t: &str| match t.trim().parse::<usize>() {
                Ok(0) => Err(format!("`{t}`: values start at 1")),
                Ok(n) => Ok(n),
                Err(_) => Err(format!("`{t}` is not a positive integer")),
            };
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("`{part}`: a range goes upwards"));
                    }
                    values.extend(a..=b);
                }
                None => values.push(number(part)?),
            }
        }
        Ok(SweepValues(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(s: &str) -> Result<Vec<usize>, String> {
        s.parse::<SweepValues>().map(|v| v.0)
    }

    #[test]
    fn parses_lists_and_ranges() {
        assert_eq!(values("1,2"), Ok(vec![1, 2]));
        assert_eq!(values("4"), Ok(vec![4]));
        assert_eq!(values("1-4"), Ok(vec![1, 2, 3, 4]));
        assert_eq!(values(" 1-2, 8 "), Ok(vec![1, 2, 8]));
    }

    #[test]
    fn rejects_what_is_not_a_positive_count() {
        assert!(values("0").is_err());
        assert!(values("").is_err());
        assert!(values("1,,2").is_err());
        assert!(values("two").is_err());
        assert!(values("4-1").is_err());
        assert!(values("-1").is_err());
    }

    #[test]
    fn parses_the_swept_parameter() {
        assert_eq!("threads".parse(), Ok(Sweep::Threads));
        assert_eq!("K".parse(), Ok(Sweep::K));
        assert_eq!("tier".parse(), Ok(Sweep::Tier));
        assert!("lanes".parse::<Sweep>().is_err());
        assert_eq!(Sweep::Threads.to_string(), "threads");
    }
}
