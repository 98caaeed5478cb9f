//! Where a simulation keeps its behaviours: each beside its entity's random stream, in contiguous
//! storage, dispatched without a pointer chase.
//!
//! A [`BehaviourStore`] maps an entity id to its behaviour and stream. The kernel's hot path goes
//! through [`BehaviourStore::visit`], which hands the behaviour to a kernel-supplied [`Visit`] by
//! its concrete type, so a store that keeps one `Vec` per behaviour kind (the entities crate's
//! network store) or one `Vec` of a single type ([`Slots`], the PHOLD benchmark) runs every event
//! with static dispatch and one memory access for the entity. [`Slots`] of boxed behaviours is the
//! general store `Simulation::new` builds (tests, hand-made models): one heap box per entity.

use super::behaviour::{Behaviour, DirectDeliveries};
use super::context::Ctx;
use super::message::Message;
use super::rng::EntityRng;
use crate::elaborate::{EntityId, PortIndex};
use crate::trace::TraceValue;

/// One entity's behaviour and random stream, side by side so an event touches one place.
pub struct Slot<B> {
    /// The behaviour.
    pub behaviour: B,
    /// Its entity's random stream (seeded by the kernel before any `init`).
    pub rng: EntityRng,
}

impl<B> Slot<B> {
    /// A slot whose stream the kernel seeds when the simulation is built.
    pub fn new(behaviour: B) -> Self {
        Slot { behaviour, rng: EntityRng::new(0) }
    }
}

/// Something the kernel does with one entity's behaviour and stream (deliver a message, fire a
/// timer, run `init`), given the behaviour by its concrete type.
pub trait Visit<M: Message> {
    /// What the visit returns.
    type Output;
    /// Do it.
    fn visit<B: Behaviour<M> + ?Sized>(self, behaviour: &mut B, rng: &mut EntityRng) -> Self::Output;
}

/// Behaviours of every entity of a simulation, by entity id.
pub trait BehaviourStore<M: Message>: Send {
    /// The store of one partition of a run on several threads: the behaviours of the entities
    /// that partition owns, still reached by their entity ids.
    type Part: BehaviourStore<M>;

    /// Number of entities held.
    fn len(&self) -> usize;

    /// True if empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The behaviour of `entity`, for the kernel's cold paths (delivery modes, deadlock reports,
    /// summaries).
    fn get(&self, entity: EntityId) -> &dyn Behaviour<M>;

    /// Run `visit` on the behaviour and stream of `entity` (the hot path).
    fn visit<V: Visit<M>>(&mut self, entity: EntityId, visit: V) -> V::Output;

    /// Seed every entity's stream: `stream(entity)` is the one it must get.
    fn seed_streams(&mut self, stream: &mut dyn FnMut(EntityId) -> EntityRng);

    /// Move every behaviour into the part of its owner (`owner[entity]`, below `parts`), leaving
    /// this store empty until [`BehaviourStore::join`]; `None` (and this store unchanged) if the
    /// store cannot be split, which makes the run use one partition.
    fn split(&mut self, owner: &[u16], parts: usize) -> Option<Vec<Self::Part>>;

    /// Take the behaviours back from the parts [`BehaviourStore::split`] made with `owner`.
    fn join(&mut self, parts: Vec<Self::Part>, owner: &[u16]);
}

/// One contiguous `Vec` of slots of one behaviour type, indexed by entity id.
pub struct Slots<B>(pub Vec<Slot<B>>);

impl<B> FromIterator<B> for Slots<B> {
    fn from_iter<I: IntoIterator<Item = B>>(behaviours: I) -> Self {
        Slots(behaviours.into_iter().map(Slot::new).collect())
    }
}

impl<M: Message, B: Behaviour<M> + 'static> BehaviourStore<M> for Slots<B> {
    type Part = SlotPart<B>;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, entity: EntityId) -> &dyn Behaviour<M> {
        &self.0[entity as usize].behaviour
    }

    #[inline]
    fn visit<V: Visit<M>>(&mut self, entity: EntityId, visit: V) -> V::Output {
        let Slot { behaviour, rng } = &mut self.0[entity as usize];
        visit.visit(behaviour, rng)
    }

    fn seed_streams(&mut self, stream: &mut dyn FnMut(EntityId) -> EntityRng) {
        for (i, slot) in self.0.iter_mut().enumerate() {
            slot.rng = stream(i as EntityId);
        }
    }

    fn split(&mut self, owner: &[u16], parts: usize) -> Option<Vec<SlotPart<B>>> {
        if owner.len() != self.0.len() {
            return None;
        }
        let mut split: Vec<SlotPart<B>> =
            (0..parts).map(|_| SlotPart { index: vec![NOT_HERE; owner.len()], slots: Vec::new() }).collect();
        for (entity, slot) in std::mem::take(&mut self.0).into_iter().enumerate() {
            let part = &mut split[usize::from(owner[entity])];
            part.index[entity] = part.slots.len() as u32;
            part.slots.push(slot);
        }
        Some(split)
    }

    fn join(&mut self, parts: Vec<SlotPart<B>>, owner: &[u16]) {
        let mut slots: Vec<_> = parts.into_iter().map(|part| part.slots.into_iter()).collect();
        self.0 =
            owner.iter().filter_map(|&p| slots.get_mut(usize::from(p)).and_then(Iterator::next)).collect();
    }
}

/// `SlotPart::index` of an entity another partition owns.
const NOT_HERE: u32 = u32::MAX;

/// The slots of the entities one partition owns, reached by entity id through an index.
pub struct SlotPart<B> {
    /// Per entity of the model: its place in `slots`, or [`NOT_HERE`].
    index: Vec<u32>,
    slots: Vec<Slot<B>>,
}

impl<M: Message, B: Behaviour<M> + 'static> BehaviourStore<M> for SlotPart<B> {
    type Part = SlotPart<B>;

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn get(&self, entity: EntityId) -> &dyn Behaviour<M> {
        &self.slots[self.index[entity as usize] as usize].behaviour
    }

    #[inline]
    fn visit<V: Visit<M>>(&mut self, entity: EntityId, visit: V) -> V::Output {
        let Slot { behaviour, rng } = &mut self.slots[self.index[entity as usize] as usize];
        visit.visit(behaviour, rng)
    }

    fn seed_streams(&mut self, stream: &mut dyn FnMut(EntityId) -> EntityRng) {
        for (entity, &i) in self.index.iter().enumerate() {
            if let Some(slot) = self.slots.get_mut(i as usize) {
                slot.rng = stream(entity as EntityId);
            }
        }
    }

    fn split(&mut self, _owner: &[u16], _parts: usize) -> Option<Vec<SlotPart<B>>> {
        None
    }

    fn join(&mut self, _parts: Vec<SlotPart<B>>, _owner: &[u16]) {}
}

/// A boxed behaviour is a behaviour (what lets [`Slots`] hold mixed kinds, one box each).
impl<M: Message> Behaviour<M> for Box<dyn Behaviour<M>> {
    fn init(&mut self, ctx: &mut Ctx<'_, M>) {
        (**self).init(ctx);
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, M>, port: PortIndex, msg: M) {
        (**self).on_message(ctx, port, msg);
    }
    fn head_delivery(&self, port: PortIndex) -> bool {
        (**self).head_delivery(port)
    }
    fn on_timer(&mut self, ctx: &mut Ctx<'_, M>, key: u64) {
        (**self).on_timer(ctx, key);
    }
    fn is_finished(&self) -> bool {
        (**self).is_finished()
    }
    fn blocked_reason(&self) -> Option<String> {
        (**self).blocked_reason()
    }
    fn traced_params(&self) -> Vec<String> {
        (**self).traced_params()
    }
    fn summary(&self) -> Vec<(String, TraceValue)> {
        (**self).summary()
    }
    fn direct_deliveries(&self) -> DirectDeliveries {
        (**self).direct_deliveries()
    }
    fn may_request_stop(&self) -> bool {
        (**self).may_request_stop()
    }
}
