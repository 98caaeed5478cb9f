//! Is a compound's behavioural level a valid stand-in for its detailed level on this workload?
//! `hase check-levels` and the GUI's "Check levels" action run the project twice — the compound
//! detailed, then behavioural, everything else as it is — and compare the makespans and the latency
//! of every MPI message (matched by sender, receiver and occurrence).
//!
//! The verdict depends on the behavioural model:
//! - **hop count**: it ignores contention, so it must agree with the detailed level *exactly*
//!   (within the tolerance) when the workload does not contend; when it does not agree the report
//!   says which level is slower and by how much (see `docs/analysis.md` for why the hop-count level
//!   can also be the slower one);
//! - **data sheet**: its equations carry min/avg/max bands; the project is also run with the
//!   sheet's `min` and `max` bands, and the level is valid when the detailed makespan lies between
//!   them (widened by the tolerance).

use std::collections::BTreeMap;
use std::fmt;

use hase_engine::analysis::{RankMessages, Tolerance};
use hase_engine::model::{AbstractionLevel, Project};
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;
use serde::Serialize;

use crate::catalogue::registry_for;
use crate::overrides::{SetError, apply_set, set_level, switchable_compounds};
use crate::runner::{RunError, RunOptions, TraceTarget, run_project};

/// Why the check could not run.
#[derive(Debug, thiserror::Error)]
pub enum CheckLevelsError {
    /// The project has no compound with a behavioural level (or not the one named).
    #[error("{0}")]
    NoCompound(String),
    /// A level could not be set.
    #[error(transparent)]
    Set(#[from] SetError),
    /// A run could not start.
    #[error("{level} run of `{compound}`: {source}")]
    Run {
        /// Compound checked.
        compound: String,
        /// `detailed`, `behavioural`, `min band`, `max band`.
        level: String,
        /// Why.
        source: Box<RunError>,
    },
}

/// The behavioural model of the compound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelKind {
    /// Contention-free hop-count formula.
    HopCount,
    /// MPI data sheet (name, band used by the behavioural run).
    DataSheet {
        /// Sheet name or file.
        sheet: String,
        /// `min`, `avg` or `max`.
        band: String,
    },
}

/// Latency differences of the matched messages.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LatencyComparison {
    /// Messages present at both levels.
    pub matched: u64,
    /// Messages at one level only.
    pub unmatched: u64,
    /// Matched messages whose latency differs beyond the tolerance.
    pub differing: u64,
    /// Largest |behavioural − detailed| latency, ps.
    pub max_difference_ps: u64,
    /// Mean behavioural − detailed latency, ps.
    pub mean_difference_ps: f64,
    /// The message with the largest difference: `r<src>→r<dst> #<n>`.
    pub worst: Option<String>,
}

/// The check of one compound.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelCheck {
    /// Instance path.
    pub compound: String,
    /// Its behavioural model.
    pub model: ModelKind,
    /// Makespan with the compound detailed, ps.
    pub detailed_ps: u64,
    /// Makespan with it behavioural, ps.
    pub behavioural_ps: u64,
    /// Data sheets: makespans with the min and max bands, ps.
    pub band_ps: Option<(u64, u64)>,
    /// Per-message latencies.
    pub latency: LatencyComparison,
    /// True when the behavioural level stands in for the detailed one.
    pub valid: bool,
    /// Why, in one sentence.
    pub verdict: String,
}

/// How to check.
#[derive(Clone, Debug, Default)]
pub struct CheckLevelsOptions {
    /// Only this compound (default: every compound with a behavioural level).
    pub compound: Option<String>,
    /// Equality margin.
    pub tolerance: Tolerance,
    /// Options of every run (trace and level are set by the check).
    pub run: RunOptions,
}

/// Check every compound of `project` (or the one named).
pub fn check_levels(
    project: &Project,
    options: &CheckLevelsOptions,
) -> Result<Vec<LevelCheck>, CheckLevelsError> {
    let all = switchable_compounds(project);
    let compounds = match &options.compound {
        Some(c) if all.contains(c) => vec![c.clone()],
        Some(c) => {
            return Err(CheckLevelsError::NoCompound(format!(
                "`{c}` is not a compound with a behavioural level; the project has: {}",
                if all.is_empty() { "none".to_string() } else { all.join(", ") }
            )));
        }
        None if all.is_empty() => {
            return Err(CheckLevelsError::NoCompound(
                "the project has no compound with a behavioural level".into(),
            ));
        }
        None => all,
    };
    compounds.iter().map(|c| check_one(project, c, options)).collect()
}

fn run_at(
    project: &Project,
    compound: &str,
    level: AbstractionLevel,
    band: Option<&str>,
    options: &CheckLevelsOptions,
) -> Result<(u64, Trace), CheckLevelsError> {
    let mut p = project.clone();
    set_level(&mut p, compound, level)?;
    if let Some(band) = band {
        apply_set(&mut p, &format!("{compound}.band={band}"))?;
    }
    let run = RunOptions { trace: TraceTarget::Memory, level: Some(2), ..options.run.clone() };
    let label = band.map_or_else(|| level.word().to_string(), |b| format!("{b} band"));
    let result = run_project(&p, &run, |_| {}).map_err(|source| CheckLevelsError::Run {
        compound: compound.to_string(),
        level: label,
        source: Box::new(source),
    })?;
    Ok((result.stats.makespan_ps, result.trace.unwrap_or_default()))
}

fn model_of(project: &Project, compound: &str) -> ModelKind {
    let registry = registry_for(project);
    let (net_path, name) = compound.rsplit_once('/').map_or(("", compound), |(a, b)| (a, b));
    let mut net = &project.network;
    for seg in net_path.split('/').filter(|s| !s.is_empty()) {
        let inner = net
            .instances
            .get(seg)
            .and_then(|i| registry.get(&i.type_name))
            .and_then(|t| t.compound.as_ref())
            .map(|c| &c.network);
        match inner {
            Some(n) => net = n,
            None => return ModelKind::HopCount,
        }
    }
    let Some(inst) = net.instances.get(name) else { return ModelKind::HopCount };
    let ty = registry.get(&inst.type_name);
    let text = |p: &str| -> Option<String> {
        inst.params
            .get(p)
            .or_else(|| ty.and_then(|t| t.param(p)).and_then(|d| d.default.as_ref()))
            .and_then(|v| v.as_text().map(str::to_string))
    };
    match text("model").as_deref() {
        Some("datasheet") => ModelKind::DataSheet {
            sheet: text("sheet").unwrap_or_default(),
            band: text("band").unwrap_or_else(|| "avg".into()),
        },
        _ => ModelKind::HopCount,
    }
}

fn check_one(
    project: &Project,
    compound: &str,
    options: &CheckLevelsOptions,
) -> Result<LevelCheck, CheckLevelsError> {
    let tol = options.tolerance;
    let model = model_of(project, compound);
    let (detailed_ps, detailed) = run_at(project, compound, AbstractionLevel::Detailed, None, options)?;
    let (behavioural_ps, behavioural) =
        run_at(project, compound, AbstractionLevel::Behavioural, None, options)?;
    let latency = compare_latencies(&detailed, &behavioural, tol);
    let (d, b) = (SimTime(detailed_ps), SimTime(behavioural_ps));
    let (band_ps, valid, verdict) = match &model {
        ModelKind::HopCount => {
            let valid = tol.agrees(d, b) && latency.differing == 0 && latency.unmatched == 0;
            let verdict = if valid {
                "valid: the hop-count level gives the same times (the workload does not contend)".to_string()
            } else if b < d {
                format!(
                    "not a stand-in here: the detailed level is slower by {} — the workload contends, and the \
                     hop-count model ignores contention",
                    d.saturating_sub(b)
                )
            } else if b > d {
                format!(
                    "not a stand-in here: the hop-count level is slower by {} — messages start later without \
                     the network's back-pressure shaping them (see docs/analysis.md)",
                    b.saturating_sub(d)
                )
            } else {
                format!(
                    "not a stand-in here: equal makespans but {} messages differ in latency",
                    latency.differing
                )
            };
            (None, valid, verdict)
        }
        ModelKind::DataSheet { .. } => {
            let (lo, _) = run_at(project, compound, AbstractionLevel::Behavioural, Some("min"), options)?;
            let (hi, _) = run_at(project, compound, AbstractionLevel::Behavioural, Some("max"), options)?;
            let (lo, hi) = (lo.min(hi), lo.max(hi));
            let inside = (tol.agrees(d, SimTime(lo)) || detailed_ps >= lo)
                && (tol.agrees(d, SimTime(hi)) || detailed_ps <= hi);
            let verdict = if inside {
                format!(
                    "valid: the detailed makespan {d} lies within the sheet's band {} – {}",
                    SimTime(lo),
                    SimTime(hi)
                )
            } else {
                format!(
                    "not a stand-in here: the detailed makespan {d} is outside the sheet's band {} – {}",
                    SimTime(lo),
                    SimTime(hi)
                )
            };
            (Some((lo, hi)), inside, verdict)
        }
    };
    Ok(LevelCheck {
        compound: compound.to_string(),
        model,
        detailed_ps,
        behavioural_ps,
        band_ps,
        latency,
        valid,
        verdict,
    })
}

/// Latencies of the messages of `a` and `b` matched by (sender rank, receiver rank, occurrence).
pub fn compare_latencies(a: &Trace, b: &Trace, tol: Tolerance) -> LatencyComparison {
    let keyed = |t: &Trace| -> BTreeMap<(Option<u32>, Option<u32>, u64), SimTime> {
        let m = RankMessages::of(t);
        let mut seen: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        let mut out = BTreeMap::new();
        for msg in &m.messages {
            let n = seen.entry((msg.src, msg.dst)).or_default();
            let rank = |p: u32| m.processes.get(p as usize).and_then(|p| p.rank);
            out.insert((rank(msg.src), rank(msg.dst), *n), msg.end.saturating_sub(msg.start));
            *n += 1;
        }
        out
    };
    let (ka, kb) = (keyed(a), keyed(b));
    let mut c = LatencyComparison::default();
    let mut sum: i128 = 0;
    for (key, la) in &ka {
        let Some(lb) = kb.get(key) else {
            c.unmatched += 1;
            continue;
        };
        c.matched += 1;
        let gap = la.max(lb).saturating_sub(*la.min(lb)).as_ps();
        sum += i128::from(lb.as_ps()) - i128::from(la.as_ps());
        if !tol.agrees(*la, *lb) {
            c.differing += 1;
        }
        if gap > c.max_difference_ps || c.worst.is_none() {
            c.max_difference_ps = gap;
            let name = |r: Option<u32>| r.map_or_else(|| "?".to_string(), |r| format!("r{r}"));
            c.worst = Some(format!("{}→{} #{}", name(key.0), name(key.1), key.2));
        }
    }
    c.unmatched += kb.keys().filter(|k| !ka.contains_key(k)).count() as u64;
    c.mean_difference_ps = if c.matched == 0 { 0.0 } else { sum as f64 / c.matched as f64 };
    c
}

impl fmt::Display for LevelCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let model = match &self.model {
            ModelKind::HopCount => "hop-count model".to_string(),
            ModelKind::DataSheet { sheet, band } => format!("data sheet {sheet} ({band} band)"),
        };
        writeln!(f, "{} — behavioural level: {model}", self.compound)?;
        writeln!(
            f,
            "  makespan    detailed {}   behavioural {}",
            SimTime(self.detailed_ps),
            SimTime(self.behavioural_ps)
        )?;
        if let Some((lo, hi)) = self.band_ps {
            writeln!(f, "  sheet band  {} – {}", SimTime(lo), SimTime(hi))?;
        }
        let l = &self.latency;
        writeln!(
            f,
            "  messages    {} matched, {} unmatched, {} differ; largest difference {}{}, mean {:+.1} ns",
            l.matched,
            l.unmatched,
            l.differing,
            SimTime(l.max_difference_ps),
            l.worst.as_ref().map(|w| format!(" ({w})")).unwrap_or_default(),
            l.mean_difference_ps / 1000.0
        )?;
        writeln!(f, "  {}", self.verdict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    #[test]
    fn the_ping_pong_agrees_and_a_sheet_is_judged_by_its_band() {
        let project = examples::abstraction_toggle().unwrap().project;
        let checks = check_levels(&project, &CheckLevelsOptions::default()).unwrap();
        assert_eq!(checks.len(), 1);
        let hop = &checks[0];
        assert_eq!((hop.compound.as_str(), &hop.model, hop.valid), ("fabric", &ModelKind::HopCount, true));
        assert_eq!(hop.detailed_ps, hop.behavioural_ps);
        assert_eq!((hop.latency.matched, hop.latency.differing, hop.latency.max_difference_ps), (8, 0, 0));

        let mut sheet = project.clone();
        apply_set(&mut sheet, "fabric.model=datasheet").unwrap();
        let options = CheckLevelsOptions { compound: Some("fabric".into()), ..CheckLevelsOptions::default() };
        let check = &check_levels(&sheet, &options).unwrap()[0];
        assert_eq!(check.model, ModelKind::DataSheet { sheet: "cray_t3d".into(), band: "avg".into() });
        // The 1996 T3D is far slower than the modelled fabric: outside its (one-line) band.
        let (lo, hi) = check.band_ps.unwrap();
        assert!(lo <= check.behavioural_ps && check.behavioural_ps <= hi);
        assert!(!check.valid && check.detailed_ps < lo, "{check}");

        let wrong = CheckLevelsOptions { compound: Some("p0".into()), ..CheckLevelsOptions::default() };
        let err = check_levels(&project, &wrong).unwrap_err().to_string();
        assert!(
            err.contains("`p0` is not a compound with a behavioural level; the project has: fabric"),
            "{err}"
        );
    }
}
