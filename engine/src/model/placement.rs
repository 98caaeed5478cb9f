//! Rank placement: which processors a workload runs on, and in which order. MPI rank `i` of the
//! workload runs on the `i`-th processor of the placement; processors left out stay idle. Processors
//! are named by their own rank (the network's numbering, which routing uses) or by instance path —
//! a hostfile names them one per line, SimGrid style.

use serde::{Deserialize, Serialize};

use crate::limits::quote;

/// Longest hostfile or list read (a bound for hostile input).
pub const MAX_PLACEMENT_ENTRIES: usize = 1 << 20;

/// Where the workload's ranks run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Placement {
    /// Every processor, MPI rank = processor rank.
    #[default]
    All,
    /// The first `n` processors (`--np n`).
    First(u32),
    /// These processors, by their processor rank: MPI rank `i` on processor `ranks[i]`.
    Ranks(Vec<u32>),
    /// These processors, by instance path (`p3`, `fabric/node-3`): MPI rank `i` on `hosts[i]`.
    Hosts(Vec<String>),
}

/// Why a placement cannot be read or used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// A list entry that is neither a rank, a range nor a name.
    #[error("placement entry `{0}` is not a processor rank (3), a range (0-7) or an instance path")]
    BadEntry(String),
    /// A hostfile line that cannot be read.
    #[error("{file}:{line}: {message}")]
    Hostfile {
        /// The hostfile.
        file: String,
        /// Line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// More entries than any network holds.
    #[error("the placement lists more than {MAX_PLACEMENT_ENTRIES} processors")]
    TooMany,
    /// Nothing placed.
    #[error("the placement names no processor")]
    Empty,
    /// `First(n)` beyond the processors there are.
    #[error("--np {wanted}: the network has only {available} processors")]
    TooFew {
        /// Ranks asked for.
        wanted: u32,
        /// Processors present.
        available: usize,
    },
    /// A processor rank that does not exist.
    #[error("placement entry {index}: processor rank {rank} does not exist (ranks 0 to {last})")]
    NoSuchRank {
        /// Position in the placement (the MPI rank it was for).
        index: usize,
        /// The processor rank given.
        rank: u32,
        /// Highest processor rank.
        last: usize,
    },
    /// A name that is not a processor.
    #[error("placement entry {index}: `{name}` is not a processor of the project")]
    NoSuchHost {
        /// Position in the placement.
        index: usize,
        /// The name given.
        name: String,
    },
    /// The same processor twice: a processor runs one rank.
    #[error("placement entries {first} and {second} both name processor {what}: a processor runs one rank")]
    Twice {
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
        /// The processor.
        what: String,
    },
}

/// The instance name a host of another tool (a SimGrid host, a hostfile line) gets: characters
/// other than letters, digits, `_` and `-` become `_`, and a leading digit gets an `h` in front
/// (`node-0.cluster.org` → `node-0_cluster_org`).
pub fn instance_name_for_host(host: &str) -> String {
    let mut name: String = host
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'h');
    }
    name
}

impl Placement {
    /// True for the default (every processor, in rank order).
    pub fn is_all(&self) -> bool {
        *self == Placement::All
    }

    /// A short description for the inspector and summaries.
    pub fn describe(&self) -> String {
        let list = |items: Vec<String>| {
            let shown: Vec<String> = items.iter().take(8).cloned().collect();
            let more = items.len().saturating_sub(8);
            if more > 0 { format!("{} … ({more} more)", shown.join(", ")) } else { shown.join(", ") }
        };
        match self {
            Placement::All => "every processor, in rank order".into(),
            Placement::First(n) => format!("the first {n} processors"),
            Placement::Ranks(r) => {
                format!("{} processors: {}", r.len(), list(r.iter().map(ToString::to_string).collect()))
            }
            Placement::Hosts(h) => format!("{} processors: {}", h.len(), list(h.clone())),
        }
    }

    /// Read a list: processor ranks and ranges (`0,2,4-7`), or instance paths (`p0 p5 fabric/p9`),
    /// separated by commas or blanks. All numbers give [`Placement::Ranks`], otherwise
    /// [`Placement::Hosts`] (host names as [`instance_name_for_host`] makes them).
    pub fn parse_list(text: &str) -> Result<Placement, PlacementError> {
        let entries: Vec<&str> =
            text.split([',', ' ', '\t', '\n']).filter(|t| !t.trim().is_empty()).collect();
        if entries.is_empty() {
            return Err(PlacementError::Empty);
        }
        let numeric = |t: &str| t.bytes().all(|b| b.is_ascii_digit() || b == b'-');
        if entries.iter().all(|t| numeric(t.trim())) {
            let mut ranks = Vec::new();
            for entry in entries {
                let entry = entry.trim();
                let bad = || PlacementError::BadEntry(quote(entry));
                let (lo, hi) = if let Some((a, b)) = entry.split_once('-') {
                    (a.parse::<u32>().map_err(|_| bad())?, b.parse::<u32>().map_err(|_| bad())?)
                } else {
                    let v = entry.parse::<u32>().map_err(|_| bad())?;
                    (v, v)
                };
                if hi < lo || ranks.len() + (hi - lo) as usize >= MAX_PLACEMENT_ENTRIES {
                    return Err(if hi < lo { bad() } else { PlacementError::TooMany });
                }
                ranks.extend(lo..=hi);
            }
            return Ok(Placement::Ranks(ranks));
        }
        if entries.len() > MAX_PLACEMENT_ENTRIES {
            return Err(PlacementError::TooMany);
        }
        let hosts = entries
            .iter()
            .map(|t| t.trim().split('/').map(instance_name_for_host).collect::<Vec<_>>().join("/"));
        Ok(Placement::Hosts(hosts.collect()))
    }

    /// Read a hostfile: one host per line (`#` comments and blank lines skipped), optionally
    /// `host:1` as SMPI writes slot counts; a host with more than one slot is refused, since a
    /// processor runs one rank. `file` names the file in errors.
    pub fn from_hostfile(text: &str, file: &str) -> Result<Placement, PlacementError> {
        let mut hosts = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fail =
                |message: String| PlacementError::Hostfile { file: file.into(), line: index + 1, message };
            let (host, slots) = match line.split_once(':') {
                Some((h, s)) => (h.trim(), Some(s.trim())),
                None => (line, None),
            };
            if host.split_whitespace().count() != 1 {
                return Err(fail(format!("`{}` is not one host name", quote(line))));
            }
            match slots.map(str::parse::<u32>) {
                None | Some(Ok(1)) => {}
                Some(Ok(n)) => {
                    return Err(fail(format!(
                        "`{}` has {n} slots; a processor runs one rank, so list each processor once",
                        quote(host)
                    )));
                }
                Some(Err(_)) => {
                    return Err(fail(format!("`{}`: the slot count is not a number", quote(line))));
                }
            }
            if hosts.len() >= MAX_PLACEMENT_ENTRIES {
                return Err(PlacementError::TooMany);
            }
            hosts.push(instance_name_for_host(host));
        }
        if hosts.is_empty() {
            return Err(PlacementError::Empty);
        }
        Ok(Placement::Hosts(hosts))
    }

    /// The processor rank of each MPI rank, given `processors` processors and a lookup from
    /// instance path to processor rank.
    pub fn resolve(
        &self,
        processors: usize,
        rank_of: impl Fn(&str) -> Option<u32>,
    ) -> Result<Vec<u32>, PlacementError> {
        let ranks: Vec<u32> = match self {
            Placement::All => (0..processors as u32).collect(),
            Placement::First(n) => {
                if *n as usize > processors {
                    return Err(PlacementError::TooFew { wanted: *n, available: processors });
                }
                (0..*n).collect()
            }
            Placement::Ranks(r) => {
                for (index, rank) in r.iter().enumerate() {
                    if *rank as usize >= processors {
                        return Err(PlacementError::NoSuchRank {
                            index,
                            rank: *rank,
                            last: processors.saturating_sub(1),
                        });
                    }
                }
                r.clone()
            }
            Placement::Hosts(h) => h
                .iter()
                .enumerate()
                .map(|(index, name)| {
                    rank_of(name).ok_or_else(|| PlacementError::NoSuchHost { index, name: quote(name) })
                })
                .collect::<Result<_, _>>()?,
        };
        if ranks.is_empty() {
            return Err(PlacementError::Empty);
        }
        let mut seen = vec![None; processors];
        for (i, r) in ranks.iter().enumerate() {
            if let Some(first) = seen[*r as usize].replace(i) {
                let what = match self {
                    Placement::Hosts(h) => format!("`{}`", h[i]),
                    _ => format!("rank {r}"),
                };
                return Err(PlacementError::Twice { first, second: i, what });
            }
        }
        Ok(ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_name(name: &str) -> Option<u32> {
        name.strip_prefix('p').and_then(|n| n.parse().ok()).filter(|n| *n < 8)
    }

    #[test]
    fn lists_ranges_and_names() {
        assert_eq!(Placement::parse_list("0, 2 4-6"), Ok(Placement::Ranks(vec![0, 2, 4, 5, 6])));
        assert_eq!(Placement::parse_list("p7 p0"), Ok(Placement::Hosts(vec!["p7".into(), "p0".into()])));
        assert_eq!(
            Placement::parse_list("node-1.example.org fabric/n.2"),
            Ok(Placement::Hosts(vec!["node-1_example_org".into(), "fabric/n_2".into()]))
        );
        assert!(matches!(Placement::parse_list("3-1"), Err(PlacementError::BadEntry(_))));
        assert!(matches!(Placement::parse_list(" , "), Err(PlacementError::Empty)));
        assert!(matches!(Placement::parse_list("0-4294967295"), Err(PlacementError::TooMany)));
    }

    #[test]
    fn hostfiles_as_smpi_writes_them() {
        let text = "# two hosts\nnode-3.cluster\n\nnode-1.cluster:1  # one slot\n";
        assert_eq!(
            Placement::from_hostfile(text, "hosts"),
            Ok(Placement::Hosts(vec!["node-3_cluster".into(), "node-1_cluster".into()]))
        );
        let e = Placement::from_hostfile("a\nb:4\n", "hosts").unwrap_err();
        assert_eq!(
            e.to_string(),
            "hosts:2: `b` has 4 slots; a processor runs one rank, so list each processor once"
        );
        let e = Placement::from_hostfile("a b\n", "hosts").unwrap_err();
        assert!(e.to_string().starts_with("hosts:1: `a b` is not one host name"), "{e}");
        assert_eq!(Placement::from_hostfile("# none\n", "h"), Err(PlacementError::Empty));
        assert_eq!(instance_name_for_host("0.node"), "h0_node");
    }

    #[test]
    fn resolution_checks_every_entry() {
        assert_eq!(Placement::All.resolve(3, by_name), Ok(vec![0, 1, 2]));
        assert_eq!(Placement::First(2).resolve(8, by_name), Ok(vec![0, 1]));
        assert_eq!(Placement::Ranks(vec![7, 0]).resolve(8, by_name), Ok(vec![7, 0]));
        assert_eq!(Placement::Hosts(vec!["p5".into(), "p1".into()]).resolve(8, by_name), Ok(vec![5, 1]));
        assert_eq!(
            Placement::First(9).resolve(8, by_name),
            Err(PlacementError::TooFew { wanted: 9, available: 8 })
        );
        let e = Placement::Ranks(vec![1, 8]).resolve(8, by_name).unwrap_err();
        assert_eq!(e.to_string(), "placement entry 1: processor rank 8 does not exist (ranks 0 to 7)");
        let e = Placement::Hosts(vec!["p1".into(), "p9".into()]).resolve(8, by_name).unwrap_err();
        assert_eq!(e.to_string(), "placement entry 1: `p9` is not a processor of the project");
        let e =
            Placement::Hosts(vec!["p1".into(), "p2".into(), "p1".into()]).resolve(8, by_name).unwrap_err();
        assert_eq!(
            e.to_string(),
            "placement entries 0 and 2 both name processor `p1`: a processor runs one rank"
        );
        assert_eq!(Placement::Ranks(vec![]).resolve(8, by_name), Err(PlacementError::Empty));
    }
}
