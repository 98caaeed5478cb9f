//! The timing of a uniform design read from its elaborated model: one latency and bandwidth for
//! every link, one switching model and routing delay for every router, one set of overheads and
//! protocol settings for every processor. Anything that differs has no closed form.

use hase_engine::elaborate::{FlatEntity, FlatModel};
use hase_engine::time::SimTime;
use hase_entities::catalogue::{NETWORK_MODEL, PROCESSOR, ROUTER};

use super::hop_timing::{HopTiming, Switching};
use super::no_closed_form::NoClosedForm;

/// What the closed forms read from a design.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformDesign {
    /// The hop model's parameters.
    pub timing: HopTiming,
    /// Messages above this size go by rendezvous.
    pub eager_limit_bytes: u64,
    /// Processors, routers and links in the model.
    pub counts: (u64, u64, u64),
}

/// The one value of `value` over `entities`, or why there is not one.
fn same<'a, T: PartialEq + Clone>(
    entities: impl Iterator<Item = &'a FlatEntity>,
    what: &'static str,
    param: &'static str,
    value: impl Fn(&FlatEntity) -> Option<T>,
) -> Result<Option<T>, NoClosedForm> {
    let mut seen: Option<T> = None;
    for e in entities {
        let v = value(e).ok_or(NoClosedForm::NonUniform { what, param })?;
        match &seen {
            Some(s) if *s != v => return Err(NoClosedForm::NonUniform { what, param }),
            Some(_) => {}
            None => seen = Some(v),
        }
    }
    Ok(seen)
}

fn processors(model: &FlatModel) -> impl Iterator<Item = &FlatEntity> {
    model.entities.iter().filter(|e| &**e.behaviour() == PROCESSOR)
}

/// The processors' one value of text parameter `param` (an algorithm choice), if they agree.
pub fn processor_text(model: &FlatModel, param: &'static str) -> Result<Option<String>, NoClosedForm> {
    same(processors(model), "processor", param, |e| e.text(param).map(str::to_string))
}

fn count(e: &FlatEntity, name: &str) -> Option<u64> {
    e.int(name).and_then(|v| u64::try_from(v).ok())
}

/// Read the uniform timing of `model`.
pub fn uniform_design(model: &FlatModel) -> Result<UniformDesign, NoClosedForm> {
    if model.entities.iter().any(|e| &**e.behaviour() == NETWORK_MODEL || e.kind().behavioural_compound) {
        return Err(NoClosedForm::BehaviouralNetwork);
    }
    let routers = || model.entities.iter().filter(|e| &**e.behaviour() == ROUTER);
    let time = |name: &'static str| move |e: &FlatEntity| e.time(name);
    let send_overhead = same(processors(model), "processor", "send_overhead", time("send_overhead"))?;
    let recv_overhead = same(processors(model), "processor", "recv_overhead", time("recv_overhead"))?;
    let max_packet = same(processors(model), "processor", "max_packet", |e| count(e, "max_packet"))?;
    let eager_limit = same(processors(model), "processor", "eager_limit", |e| count(e, "eager_limit"))?;
    let header = same(processors(model), "processor", "header_bytes", |e| count(e, "header_bytes"))?;
    if let Some(h) = header.filter(|h| *h > 0) {
        return Err(NoClosedForm::ProcessorSetting { param: "header_bytes", value: h.to_string() });
    }
    let reduce = same(processors(model), "processor", "reduce_time_per_kib", time("reduce_time_per_kib"))?;
    if let Some(r) = reduce.filter(|r| *r > SimTime::ZERO) {
        return Err(NoClosedForm::ProcessorSetting { param: "reduce_time_per_kib", value: r.to_string() });
    }
    let eager_start =
        same(processors(model), "processor", "eager_start", |e| e.text("eager_start").map(str::to_string))?;
    if let Some(start) = eager_start.filter(|s| s != "send") {
        return Err(NoClosedForm::ProcessorSetting { param: "eager_start", value: start });
    }
    let switching =
        same(routers(), "router", "switching", |e| e.text("switching").and_then(Switching::from_name))?;
    let routing_delay = same(routers(), "router", "routing_delay", time("routing_delay"))?;
    let link = |param: &'static str| NoClosedForm::NonUniform { what: "link", param };
    let first = model.links.first();
    if model.links.iter().any(|l| Some(l.latency) != first.map(|f| f.latency)) {
        return Err(link("latency"));
    }
    if model.links.iter().any(|l| Some(l.bandwidth_bytes_per_s) != first.map(|f| f.bandwidth_bytes_per_s)) {
        return Err(link("bandwidth"));
    }
    let timing = HopTiming {
        latency: first.map_or(SimTime::ZERO, |l| l.latency),
        bandwidth_bytes_per_s: first.map_or(0, |l| l.bandwidth_bytes_per_s),
        routing_delay: routing_delay.unwrap_or(SimTime::ZERO),
        send_overhead: send_overhead.unwrap_or(SimTime::ZERO),
        recv_overhead: recv_overhead.unwrap_or(SimTime::ZERO),
        max_packet_bytes: max_packet.unwrap_or(1),
        switching: switching.unwrap_or(Switching::StoreAndForward),
    };
    let counts = (processors(model).count() as u64, routers().count() as u64, model.links.len() as u64);
    Ok(UniformDesign { timing, eager_limit_bytes: eager_limit.unwrap_or(u64::MAX), counts })
}
