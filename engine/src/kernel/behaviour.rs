//! What a model implements for each entity: its event-driven `Behaviour`. Behaviours talk only to their own ports (and timers); they never see other entities.

use super::context::Ctx;
use super::message::Message;
use crate::elaborate::{EntityId, PortIndex};
use crate::trace::TraceValue;

/// An entity's behaviour: a state machine driven by message arrivals and timers.
pub trait Behaviour<M: Message>: Send {
    /// Called once at time zero, in entity order, before any event runs.
    fn init(&mut self, ctx: &mut Ctx<'_, M>) {
        let _ = ctx;
    }

    /// A message arrived on `port`.
    fn on_message(&mut self, ctx: &mut Ctx<'_, M>, port: PortIndex, msg: M);

    /// True if messages on `port` should be delivered when their first bit arrives rather than their
    /// last (what a cut-through router wants). Asked once per port before any `init` runs.
    fn head_delivery(&self, port: PortIndex) -> bool {
        let _ = port;
        false
    }

    /// A timer set with `Ctx::schedule` fired.
    fn on_timer(&mut self, ctx: &mut Ctx<'_, M>, key: u64) {
        let _ = (ctx, key);
    }

    /// False while the entity still has work it is waiting to do (a processor before DONE, a router
    /// holding packets). If the event queue empties while any entity is unfinished, the run ends
    /// with a deadlock report.
    fn is_finished(&self) -> bool {
        true
    }

    /// What an unfinished entity waits for, in words (`RECV from rank 2, tag 5`).
    fn blocked_reason(&self) -> Option<String> {
        None
    }

    /// Names of the parameters this behaviour traces with `Ctx::set_param` / `set_array`, indexed
    /// by the numbers it passes there.
    fn traced_params(&self) -> Vec<String> {
        Vec::new()
    }

    /// End-of-run figures (level-5 summary records and extra statistics).
    fn summary(&self) -> Vec<(String, TraceValue)> {
        Vec::new()
    }

    /// The entities this behaviour may reach with `Ctx::deliver_direct`. A run on several threads
    /// keeps an entity and the entities it delivers to directly in one partition; a behaviour that
    /// does not declare them (the default) makes the run use one partition.
    fn direct_deliveries(&self) -> DirectDeliveries {
        DirectDeliveries::Undeclared
    }

    /// True (the default) if this behaviour may call `Ctx::request_stop`, which ends a run right
    /// after the event that asked: a run with such a behaviour uses one partition.
    fn may_request_stop(&self) -> bool {
        true
    }
}

/// Which entities a behaviour may deliver to directly (see [`Behaviour::direct_deliveries`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DirectDeliveries {
    /// Not said: any entity.
    #[default]
    Undeclared,
    /// None: the behaviour only sends over links and sets timers.
    Never,
    /// Only these entities.
    To(Vec<EntityId>),
}
