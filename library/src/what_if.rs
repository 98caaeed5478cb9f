//! What-if assignments: the `--set` lines that make one link or one instance of a design `n×`
//! faster, or change any one of its parameters. A link's speeds are its bandwidth (multiplied) and
//! latency (divided); an instance's are its time parameters (divided: overheads, routing delay) and
//! its rates (multiplied: bandwidths, flop rates). The lines go through [`crate::overrides`], so a
//! what-if is exactly `hase run --set LINE …`; the critical path's blame rows name their link or
//! instance as [`Target::from_blame_name`] reads them.

use hase_engine::model::{Link, ParamValue, PortRef, Project};
use hase_engine::time::SimTime;
use hase_engine::units::{self, Dimension};

use crate::overrides::{SetError, instance_and_type, target_param};

/// What a what-if changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The top-level link between two ports (either end may be named first).
    Link {
        /// One end.
        a: PortRef,
        /// The other end.
        b: PortRef,
    },
    /// The instance at this path (`r3`, `fabric/s_l0_0`).
    Instance {
        /// Its path.
        path: String,
    },
}

/// How a parameter relates to speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// A time: smaller is faster.
    Time,
    /// A rate: larger is faster.
    Rate,
    /// Neither: only a value can be given.
    Other,
}

/// One parameter of a target, as a `--set` target with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    /// The `--set` target (`link:r3.p0.bandwidth`, `fabric/r3.routing_delay`).
    pub set_target: String,
    /// The parameter's name (`bandwidth`).
    pub param: String,
    /// Its value now.
    pub value: ParamValue,
    /// How it relates to speed.
    pub speed: Speed,
}

/// Why a target has no what-if.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WhatIfError {
    /// No top-level link joins these ports (links inside a compound have no `--set` target).
    #[error("no top-level link joins {a} and {b}")]
    NoLink {
        /// One end (`r3.p0`).
        a: String,
        /// The other end.
        b: String,
    },
    /// The instance or one of its parameters cannot be assigned.
    #[error(transparent)]
    Set(#[from] SetError),
    /// A factor that is not a positive finite number.
    #[error("a factor is a positive number, not {factor}")]
    Factor {
        /// The factor given.
        factor: f64,
    },
}

impl Target {
    /// The target a critical-path blame row names: `a.port -> b.port` for a link, an instance path
    /// otherwise. `None` for a name of neither form (a phase).
    pub fn from_blame_name(name: &str) -> Option<Target> {
        let end = |text: &str| {
            let (instance, port) = text.trim().rsplit_once('.')?;
            (!instance.is_empty() && !port.is_empty()).then(|| PortRef::new(instance, port))
        };
        match name.split_once(" -> ") {
            Some((a, b)) => Some(Target::Link { a: end(a)?, b: end(b)? }),
            None if !name.is_empty() && !name.contains(' ') && !name.starts_with('#') => {
                Some(Target::Instance { path: name.to_string() })
            }
            None => None,
        }
    }

    /// Words for headings: `link r3.p0 — r4.p1`, `r3`.
    pub fn describe(&self) -> String {
        match self {
            Target::Link { a, b } => format!("link {a} — {b}"),
            Target::Instance { path } => path.clone(),
        }
    }
}

fn find_link<'p>(project: &'p Project, a: &PortRef, b: &PortRef) -> Option<&'p Link> {
    project.network.links.iter().find(|l| l.touches(a) && l.touches(b))
}

/// The parameters of `target` that `--set` can change, speeds first (in the type's order).
pub fn knobs(project: &Project, target: &Target) -> Result<Vec<Knob>, WhatIfError> {
    match target {
        Target::Link { a, b } => {
            let link = find_link(project, a, b)
                .ok_or_else(|| WhatIfError::NoLink { a: a.to_string(), b: b.to_string() })?;
            let at = format!("link:{}.{}", link.a.instance, link.a.port);
            let bandwidth = i64::try_from(link.bandwidth_bytes_per_s).unwrap_or(i64::MAX);
            Ok(vec![
                Knob {
                    set_target: format!("{at}.bandwidth"),
                    param: "bandwidth".into(),
                    value: ParamValue::Int(bandwidth),
                    // 0 is unlimited: nothing to make faster.
                    speed: if bandwidth == 0 { Speed::Other } else { Speed::Rate },
                },
                Knob {
                    set_target: format!("{at}.latency"),
                    param: "latency".into(),
                    value: ParamValue::Time(link.latency),
                    speed: Speed::Time,
                },
            ])
        }
        Target::Instance { path } => {
            let (instance, ty) = instance_and_type(project, path)?;
            let mut out: Vec<Knob> = Vec::new();
            for def in &ty.params {
                let set_target = format!("{path}.{}", def.name);
                // Parameters the templates set (coordinates, levels) are not speeds but still values.
                let def = target_param(project, &set_target)?;
                let speed = match def.dimension() {
                    Some(Dimension::Time) => Speed::Time,
                    Some(Dimension::Rate | Dimension::FlopRate) => Speed::Rate,
                    _ => Speed::Other,
                };
                let Some(value) = instance.params.get(&def.name).cloned().or_else(|| def.default.clone())
                else {
                    continue;
                };
                out.push(Knob { set_target, param: def.name.clone(), value, speed });
            }
            out.sort_by_key(|k| k.speed == Speed::Other);
            Ok(out)
        }
    }
}

/// `value` made `factor`× faster (a time divided, a rate multiplied, rounded to whole units of
/// the base quantity; never below one); `None` for a value that is not a speed, or is zero.
pub fn faster_value(value: &ParamValue, speed: Speed, factor: f64) -> Option<ParamValue> {
    let scaled = |v: f64| match speed {
        Speed::Time => v / factor,
        Speed::Rate => v * factor,
        Speed::Other => v,
    };
    match (speed, value) {
        // Nothing to gain from a zero time, and a zero rate is unlimited or unused.
        (Speed::Other, _) | (_, ParamValue::Time(SimTime(0)) | ParamValue::Int(0)) => None,
        (_, ParamValue::Float(v)) if *v <= 0.0 => None,
        (_, ParamValue::Time(t)) => {
            Some(ParamValue::Time(SimTime(scaled(t.as_ps() as f64).round().max(1.0) as u64)))
        }
        (_, ParamValue::Int(v)) => Some(ParamValue::Int(scaled(*v as f64).round().max(1.0) as i64)),
        (_, ParamValue::Float(v)) => Some(ParamValue::Float(scaled(*v))),
        _ => None,
    }
}

/// `value` as `--set` reads it back for parameter `knob`: times and rates in the largest unit they
/// reach, with no space (`2.5us`, `2GB/s`), so that the line is one shell word.
pub fn value_text(knob: &Knob, value: &ParamValue) -> String {
    let text = match (knob.speed, value) {
        (_, ParamValue::Time(t)) => units::format_time(*t),
        (Speed::Rate, ParamValue::Int(v)) if *v > 0 => units::format_rate(v.unsigned_abs()),
        (Speed::Rate, ParamValue::Float(v)) => units::format_flop_rate(*v),
        _ => crate::experiment::values::canonical(value),
    };
    text.replace(' ', "")
}

/// The assignment that makes `knob` `factor`× faster (`None` when it is not a speed).
pub fn faster_line(knob: &Knob, factor: f64) -> Option<String> {
    let value = faster_value(&knob.value, knob.speed, factor)?;
    Some(format!("{}={}", knob.set_target, value_text(knob, &value)))
}

/// The assignments that make `target` `factor`× faster: every speed of it.
pub fn faster_lines(project: &Project, target: &Target, factor: f64) -> Result<Vec<String>, WhatIfError> {
    if !(factor.is_finite() && factor > 0.0) {
        return Err(WhatIfError::Factor { factor });
    }
    Ok(knobs(project, target)?.iter().filter_map(|k| faster_line(k, factor)).collect())
}

/// The `hase run` arguments of `lines`: `--set a=1 --set b=2`.
pub fn set_arguments(lines: &[String]) -> String {
    lines.iter().map(|l| format!("--set {l}")).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;
    use crate::overrides::apply_set;

    #[test]
    fn blame_names_read_as_links_and_instances() {
        assert_eq!(
            Target::from_blame_name("s_l0_0.p2 -> s_l1_0.p0"),
            Some(Target::Link { a: PortRef::new("s_l0_0", "p2"), b: PortRef::new("s_l1_0", "p0") })
        );
        assert_eq!(Target::from_blame_name("fabric/r3"), Some(Target::Instance { path: "fabric/r3".into() }));
        assert_eq!(Target::from_blame_name("#3 exchange"), None);
        assert_eq!(Target::from_blame_name("between phases"), None);
        assert_eq!(Target::from_blame_name("a -> b.p"), None);
    }

    #[test]
    fn a_link_twice_as_fast_doubles_its_bandwidth_and_halves_its_latency_through_set() {
        let project = examples::binary_tree_allreduce().unwrap().project;
        let link = project.network.links[0].clone();
        // Named from its far end first, as a blame row may.
        let target = Target::Link { a: link.b.clone(), b: link.a.clone() };
        let lines = faster_lines(&project, &target, 2.0).unwrap();
        assert_eq!(lines.len(), 2, "{lines:?}");
        let mut changed = project.clone();
        for line in &lines {
            apply_set(&mut changed, line).unwrap();
        }
        let after = find_link(&changed, &link.a, &link.b).unwrap();
        assert_eq!(after.bandwidth_bytes_per_s, 2 * link.bandwidth_bytes_per_s);
        assert_eq!(after.latency.as_ps(), link.latency.as_ps() / 2);
        assert!(lines.iter().all(|l| !l.contains(' ')), "one shell word each: {lines:?}");
        let none = Target::Link { a: PortRef::new("nobody", "p0"), b: link.b.clone() };
        assert!(matches!(knobs(&project, &none), Err(WhatIfError::NoLink { .. })));
        assert!(matches!(faster_lines(&project, &target, 0.0), Err(WhatIfError::Factor { .. })));
    }

    #[test]
    fn an_instance_faster_divides_its_times_and_multiplies_its_rates() {
        let project = examples::binary_tree_allreduce().unwrap().project;
        let (router, _) = project.network.instances.iter().find(|(_, i)| i.type_name == "Router").unwrap();
        let target = Target::Instance { path: router.clone() };
        let all = knobs(&project, &target).unwrap();
        let delay = all.iter().find(|k| k.param == "routing_delay").unwrap();
        assert_eq!(delay.speed, Speed::Time);
        assert!(all.iter().any(|k| k.param == "radix" && k.speed == Speed::Other));
        let lines = faster_lines(&project, &target, 4.0).unwrap();
        assert_eq!(lines, [faster_line(delay, 4.0).unwrap()]);
        let mut changed = project.clone();
        apply_set(&mut changed, &lines[0]).unwrap();
        let ParamValue::Time(before) = delay.value else { panic!("{delay:?}") };
        assert_eq!(
            changed.network.instances[router].params["routing_delay"],
            ParamValue::Time(SimTime(before.as_ps() / 4))
        );
        let (p, _) = project.network.instances.iter().find(|(_, i)| i.type_name == "Processor").unwrap();
        let lines = faster_lines(&project, &Target::Instance { path: p.clone() }, 2.0).unwrap();
        assert!(lines.iter().any(|l| l.starts_with(&format!("{p}.flops_per_s="))), "{lines:?}");
        assert_eq!(faster_value(&ParamValue::Time(SimTime::ZERO), Speed::Time, 2.0), None, "zero stays zero");
        let mut changed = project.clone();
        for line in &lines {
            apply_set(&mut changed, line).unwrap();
        }
        let no = knobs(&project, &Target::Instance { path: "nobody".into() }).unwrap_err();
        assert!(no.to_string().contains("no instance `nobody`"), "{no}");
    }
}
