//! Metrics by name, measured from a run's `RunStats`:
//!
//! - scalars: `makespan_ps`, `events`, `wall_time_s`, `events_per_s`, `dropped_messages`,
//!   `messages` (latencies recorded), `latency_mean_ps`, `latency_min_ps`, `latency_max_ps`,
//!   `link_bytes` and `link_msgs` (summed over link directions, so a message counts once per hop),
//!   `max_link_utilisation`;
//! - `utilisation:NAME` — a link direction (`r.p2 -> p2.net`), the link leaving a port (`p0.net`),
//!   an entity's busy fraction (`p3`, `fabric/s0_1`), or the mean busy fraction of a group;
//! - `state_ps:STATE@GROUP` — time in a state summed over a group of entities.
//!
//! A group is `*` (every entity), `type:T` (every entity of type T) or a path pattern where `*`
//! stands for any run of characters (`p*`, `fabric/*`). Unknown names are errors that list what
//! exists. `wall_time_s` and `events_per_s` vary from run to run, so results holding them are not
//! byte-identical between reruns.

use hase_engine::elaborate::FlatModel;
use hase_engine::stats::RunStats;

use super::record::MetricValue;

/// Scalar metrics, with what they measure (for listings and errors).
pub const SCALARS: [(&str, &str); 12] = [
    ("makespan_ps", "simulated time at the end of the run"),
    ("events", "events handled"),
    ("wall_time_s", "wall-clock seconds (varies between runs)"),
    ("events_per_s", "events per wall-clock second (varies between runs)"),
    ("dropped_messages", "messages sent on unconnected ports"),
    ("messages", "message latencies recorded"),
    ("latency_mean_ps", "mean message latency"),
    ("latency_min_ps", "smallest message latency"),
    ("latency_max_ps", "largest message latency"),
    ("link_bytes", "bytes carried, summed over link directions"),
    ("link_msgs", "messages carried, summed over link directions"),
    ("max_link_utilisation", "busy fraction of the busiest link direction"),
];

/// A set of entities.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// Entities of this type.
    Type(String),
    /// Entities whose path matches this pattern (`*` matches any run of characters).
    Pattern(String),
}

impl Group {
    fn parse(text: &str) -> Self {
        match text.strip_prefix("type:") {
            Some(t) => Group::Type(t.to_string()),
            None => Group::Pattern(text.to_string()),
        }
    }

    fn contains(&self, path: &str, type_name: &str) -> bool {
        match self {
            Group::Type(t) => t == type_name,
            Group::Pattern(p) => matches_pattern(p, path),
        }
    }
}

/// `*` matches any run of characters; everything else matches itself.
fn matches_pattern(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, rest) = parts.split_first().unwrap_or((&"", &[]));
    let Some(mut remaining) = text.strip_prefix(first) else { return false };
    let Some((last, middle)) = rest.split_last() else { return remaining.is_empty() };
    for part in middle {
        match remaining.find(part) {
            Some(i) => remaining = &remaining[i + part.len()..],
            None => return false,
        }
    }
    remaining.ends_with(last)
}

/// A metric, read from its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Metric {
    /// One of [`SCALARS`].
    Scalar(&'static str),
    /// `utilisation:NAME`.
    Utilisation(String),
    /// `state_ps:STATE@GROUP`.
    StateTime {
        /// The state.
        state: String,
        /// Whose time is summed.
        group: Group,
    },
}

/// Why a metric name does not read, or names what a point's network does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetricError {
    /// A `state_ps:` metric without `STATE@GROUP`.
    #[error("`{name}`: expected `state_ps:STATE@GROUP`, e.g. state_ps:COMPUTE@p*")]
    StateForm {
        /// The metric as written.
        name: String,
    },
    /// No metric of this name.
    #[error(
        "unknown metric `{name}`; metrics are {scalars}, utilisation:LINK|ENTITY|GROUP and state_ps:STATE@GROUP"
    )]
    Unknown {
        /// The name.
        name: String,
        /// The scalar metrics, comma-separated.
        scalars: String,
    },
    /// A utilisation of nothing the network has.
    #[error(
        "`utilisation:{target}`: no such link, port, entity or group; links are {links}; entities are {entities}"
    )]
    NoTarget {
        /// The target.
        target: String,
        /// The links (abridged).
        links: String,
        /// The entities (abridged).
        entities: String,
    },
    /// A state-time group that matches no entity.
    #[error("`state_ps:{state}@…`: the group matches no entity; entities are {entities}")]
    EmptyGroup {
        /// The state.
        state: String,
        /// The entities (abridged).
        entities: String,
    },
    /// A state the group's entities do not have.
    #[error("`state_ps:{state}@…`: the group's states are {states}")]
    NoState {
        /// The state.
        state: String,
        /// The group's states, comma-separated.
        states: String,
    },
}

impl Metric {
    /// Read a metric name; unknown names list the ones there are.
    pub fn parse(name: &str) -> Result<Self, MetricError> {
        if let Some((scalar, _)) = SCALARS.iter().find(|(s, _)| *s == name) {
            return Ok(Metric::Scalar(scalar));
        }
        if let Some(target) = name.strip_prefix("utilisation:").filter(|t| !t.is_empty()) {
            return Ok(Metric::Utilisation(target.to_string()));
        }
        if let Some(rest) = name.strip_prefix("state_ps:") {
            let (state, group) = rest
                .split_once('@')
                .filter(|(s, g)| !s.is_empty() && !g.is_empty())
                .ok_or_else(|| MetricError::StateForm { name: name.to_string() })?;
            return Ok(Metric::StateTime { state: state.to_string(), group: Group::parse(group) });
        }
        let scalars: Vec<&str> = SCALARS.iter().map(|(s, _)| *s).collect();
        Err(MetricError::Unknown { name: name.to_string(), scalars: scalars.join(", ") })
    }

    /// Check the names this metric refers to against a point's network; the error lists what
    /// exists.
    pub fn check(&self, model: &FlatModel) -> Result<(), MetricError> {
        match self {
            Metric::Scalar(_) => Ok(()),
            Metric::Utilisation(target) => {
                let links = link_keys(model);
                let known_entity = model.find(target).is_some();
                let known_link = links.iter().any(|k| k == target || k.starts_with(&format!("{target} -> ")));
                let group = Group::parse(target);
                let is_group = target.contains('*') || target.starts_with("type:");
                let group_hits = model.entities.iter().any(|e| group.contains(&e.path, e.type_name()));
                if known_entity || known_link || (is_group && group_hits) {
                    Ok(())
                } else {
                    Err(MetricError::NoTarget {
                        target: target.clone(),
                        links: listing(links.iter().map(String::as_str)),
                        entities: listing(model.entities.iter().map(|e| e.path.as_str())),
                    })
                }
            }
            Metric::StateTime { state, group } => {
                let members: Vec<_> =
                    model.entities.iter().filter(|e| group.contains(&e.path, e.type_name())).collect();
                if members.is_empty() {
                    return Err(MetricError::EmptyGroup {
                        state: state.clone(),
                        entities: listing(model.entities.iter().map(|e| e.path.as_str())),
                    });
                }
                let mut states: Vec<&str> =
                    members.iter().flat_map(|e| e.states().iter().map(|s| &**s)).collect();
                states.sort_unstable();
                states.dedup();
                if states.contains(&state.as_str()) {
                    Ok(())
                } else {
                    Err(MetricError::NoState { state: state.clone(), states: states.join(", ") })
                }
            }
        }
    }

    /// The metric's value in a run's statistics (`None` when what it names is not in them).
    pub fn value(&self, stats: &RunStats) -> Option<MetricValue> {
        use MetricValue::{Float, Int};
        match self {
            Metric::Scalar(name) => Some(match *name {
                "makespan_ps" => Int(stats.makespan_ps),
                "events" => Int(stats.events),
                "wall_time_s" => Float(stats.wall_time_s),
                "events_per_s" => Float(stats.events_per_s),
                "dropped_messages" => Int(stats.dropped_messages),
                "messages" => Int(stats.latency.count),
                "latency_mean_ps" => Float(stats.latency.mean_ps),
                "latency_min_ps" => Int(stats.latency.min_ps),
                "latency_max_ps" => Int(stats.latency.max_ps),
                "link_bytes" => Int(stats.links.values().map(|l| l.bytes).sum()),
                "link_msgs" => Int(stats.links.values().map(|l| l.msgs).sum()),
                "max_link_utilisation" => {
                    Float(stats.links.values().map(|l| l.utilisation).fold(0.0, f64::max))
                }
                _ => return None,
            }),
            Metric::Utilisation(target) => {
                if let Some(link) = stats.links.get(target) {
                    return Some(Float(link.utilisation));
                }
                if let Some(entity) = stats.entities.get(target) {
                    return Some(Float(entity.busy_fraction));
                }
                let prefix = format!("{target} -> ");
                if let Some((_, link)) = stats.links.iter().find(|(k, _)| k.starts_with(&prefix)) {
                    return Some(Float(link.utilisation));
                }
                let group = Group::parse(target);
                let busy: Vec<f64> = stats
                    .entities
                    .iter()
                    .filter(|(path, e)| group.contains(path, &e.type_name))
                    .map(|(_, e)| e.busy_fraction)
                    .collect();
                (!busy.is_empty()).then(|| Float(busy.iter().sum::<f64>() / busy.len() as f64))
            }
            Metric::StateTime { state, group } => {
                let mut members =
                    stats.entities.iter().filter(|(p, e)| group.contains(p, &e.type_name)).peekable();
                members.peek()?;
                Some(Int(members
                    .map(|(_, e)| e.state_time_ps.get(state.as_str()).copied().unwrap_or(0))
                    .sum()))
            }
        }
    }
}

/// Every link direction's key as `RunStats::links` names it (`from.port -> to.port`).
fn link_keys(model: &FlatModel) -> Vec<String> {
    let mut keys = Vec::new();
    for l in &model.links {
        if l.forward {
            keys.push(format!("{} -> {}", model.describe(l.ends[0]), model.describe(l.ends[1])));
        }
        if l.backward {
            keys.push(format!("{} -> {}", model.describe(l.ends[1]), model.describe(l.ends[0])));
        }
    }
    keys
}

/// The first dozen names, then how many more.
fn listing<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    let shown: Vec<&str> = names.iter().take(12).copied().collect();
    match names.len().saturating_sub(shown.len()) {
        0 => shown.join(", "),
        more => format!("{} … and {more} more", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;
    use crate::runner::{RunOptions, elaborate_project, run_project};

    #[test]
    fn patterns_match_like_shell_globs() {
        assert!(matches_pattern("p*", "p12"));
        assert!(matches_pattern("*", "anything"));
        assert!(matches_pattern("fabric/*_1", "fabric/s0_1"));
        assert!(!matches_pattern("fabric/*_1", "fabric/s0_2"));
        assert!(matches_pattern("p3", "p3") && !matches_pattern("p3", "p30"));
        assert!(matches_pattern("a*b*c", "aXbYc") && !matches_pattern("a*b*c", "aXcYb"));
    }

    #[test]
    fn names_are_checked_against_the_network_and_read_from_the_stats() {
        let project = examples::binary_tree_allreduce().unwrap().project;
        let model = elaborate_project(&project).unwrap();
        let stats = run_project(&project, &RunOptions::default(), |_| {}).unwrap().stats;
        let value = |name: &str| {
            let metric = Metric::parse(name).unwrap();
            metric.check(&model).unwrap();
            metric.value(&stats).unwrap()
        };
        assert_eq!(value("makespan_ps"), MetricValue::Int(stats.makespan_ps));
        let link = stats.links.keys().next().unwrap().clone();
        assert_eq!(value(&format!("utilisation:{link}")), MetricValue::Float(stats.links[&link].utilisation));
        let port = link.split(" -> ").next().unwrap();
        assert_eq!(value(&format!("utilisation:{port}")), MetricValue::Float(stats.links[&link].utilisation));
        assert_eq!(value("utilisation:p0"), MetricValue::Float(stats.entities["p0"].busy_fraction));
        let processors: Vec<_> = stats.entities.values().filter(|e| &*e.type_name == "Processor").collect();
        let compute: u64 =
            processors.iter().map(|e| e.state_time_ps.get("ALLREDUCE").copied().unwrap_or(0)).sum();
        assert!(compute > 0);
        assert_eq!(value("state_ps:ALLREDUCE@type:Processor"), MetricValue::Int(compute));
        assert_eq!(value("state_ps:ALLREDUCE@p*"), MetricValue::Int(compute));
        let mean = processors.iter().map(|e| e.busy_fraction).sum::<f64>() / processors.len() as f64;
        let MetricValue::Float(got) = value("utilisation:type:Processor") else { panic!() };
        assert!((got - mean).abs() < 1e-12);
        let link_bytes: u64 = stats.links.values().map(|l| l.bytes).sum();
        assert_eq!(value("link_bytes"), MetricValue::Int(link_bytes));
    }

    #[test]
    fn unknown_names_list_what_exists() {
        let err = Metric::parse("makespan").unwrap_err().to_string();
        assert!(err.contains("makespan_ps") && err.contains("state_ps:STATE@GROUP"), "{err}");
        let model = elaborate_project(&examples::fat_tree_allreduce().unwrap().project).unwrap();
        let err = Metric::parse("utilisation:p99").unwrap().check(&model).unwrap_err().to_string();
        assert!(err.contains("links are s_l0_0.p2 -> s_l1_0.p0") && err.contains("… and 36 more"), "{err}");
        let err =
            Metric::parse("state_ps:NAPPING@type:Processor").unwrap().check(&model).unwrap_err().to_string();
        assert!(err.contains("COMPUTE") && err.contains("ALLREDUCE"), "{err}");
        let err = Metric::parse("state_ps:COMPUTE@q*").unwrap().check(&model).unwrap_err().to_string();
        assert!(err.contains("matches no entity"), "{err}");
        assert!(Metric::parse("state_ps:COMPUTE").unwrap_err().to_string().contains("STATE@GROUP"));
    }
}
