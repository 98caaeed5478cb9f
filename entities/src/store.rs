//! The behaviours of a network simulation in contiguous storage: one `Vec` per kind (processors,
//! first-come-first-served routers, and the rarer kinds boxed: behavioural network models and
//! routers that share their outputs round robin), each behaviour beside its entity's
//! random stream, and a compact place per entity saying which `Vec` and where. The kernel reaches
//! an entity's behaviour with one lookup in the place table and one access into its kind's `Vec`,
//! and calls it with static dispatch (see `hase_engine::kernel::BehaviourStore`).

use hase_engine::kernel::{BehaviourStore, EntityRng, Slot, Visit};
use hase_engine::{Behaviour, EntityId};

use crate::message::NetMsg;
use crate::processor::ProcessorBehaviour;
use crate::router::switch::RouterBehaviour;

/// Bits of a place that hold the index within the kind's `Vec`.
const INDEX_BITS: u32 = 30;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
const PROCESSOR: u32 = 0;
const ROUTER: u32 = 1;
const OTHER: u32 = 2;

/// Every entity's behaviour, by entity id, grouped by kind.
#[derive(Default)]
pub struct NetBehaviours {
    /// Per entity: kind in the top bits, index in that kind's `Vec` below.
    places: Vec<u32>,
    processors: Vec<Slot<ProcessorBehaviour>>,
    routers: Vec<Slot<RouterBehaviour>>,
    others: Vec<Slot<Box<dyn Behaviour<NetMsg>>>>,
}

impl NetBehaviours {
    /// An empty store with room for `entities`.
    pub fn with_capacity(entities: usize) -> Self {
        NetBehaviours { places: Vec::with_capacity(entities), ..NetBehaviours::default() }
    }

    fn place(&mut self, kind: u32, index: usize) {
        debug_assert!(index <= INDEX_MASK as usize, "more than 2^30 entities of one kind");
        self.places.push(kind << INDEX_BITS | index as u32);
    }

    /// Add the next entity: a processor.
    pub fn push_processor(&mut self, behaviour: ProcessorBehaviour) {
        self.place(PROCESSOR, self.processors.len());
        self.processors.push(Slot::new(behaviour));
    }

    /// Add the next entity: a router.
    pub fn push_router(&mut self, behaviour: RouterBehaviour) {
        self.place(ROUTER, self.routers.len());
        self.routers.push(Slot::new(behaviour));
    }

    /// Add the next entity: any other behaviour (network models, round-robin routers; one box each).
    pub fn push_other(&mut self, behaviour: Box<dyn Behaviour<NetMsg>>) {
        self.place(OTHER, self.others.len());
        self.others.push(Slot::new(behaviour));
    }

    fn kind_and_index(&self, entity: EntityId) -> (u32, usize) {
        let place = self.places[entity as usize];
        (place >> INDEX_BITS, (place & INDEX_MASK) as usize)
    }
}

impl BehaviourStore<NetMsg> for NetBehaviours {
    type Part = NetBehaviours;

    fn len(&self) -> usize {
        self.places.len()
    }

    fn get(&self, entity: EntityId) -> &dyn Behaviour<NetMsg> {
        match self.kind_and_index(entity) {
            (PROCESSOR, i) => &self.processors[i].behaviour,
            (ROUTER, i) => &self.routers[i].behaviour,
            (_, i) => &self.others[i].behaviour,
        }
    }

    #[inline]
    fn visit<V: Visit<NetMsg>>(&mut self, entity: EntityId, visit: V) -> V::Output {
        match self.kind_and_index(entity) {
            (PROCESSOR, i) => {
                let Slot { behaviour, rng } = &mut self.processors[i];
                visit.visit(behaviour, rng)
            }
            (ROUTER, i) => {
                let Slot { behaviour, rng } = &mut self.routers[i];
                visit.visit(behaviour, rng)
            }
            (_, i) => {
                let Slot { behaviour, rng } = &mut self.others[i];
                visit.visit(behaviour.as_mut(), rng)
            }
        }
    }

    fn seed_streams(&mut self, stream: &mut dyn FnMut(EntityId) -> EntityRng) {
        for entity in 0..self.places.len() as EntityId {
            let rng = stream(entity);
            match self.kind_and_index(entity) {
                (PROCESSOR, i) => self.processors[i].rng = rng,
                (ROUTER, i) => self.routers[i].rng = rng,
                (_, i) => self.others[i].rng = rng,
            }
        }
    }

    fn split(&mut self, owner: &[u16], parts: usize) -> Option<Vec<NetBehaviours>> {
        if owner.len() != self.places.len() {
            return None;
        }
        let count = self.places.len();
        let mut split: Vec<NetBehaviours> = (0..parts)
            .map(|_| NetBehaviours { places: vec![0; count], ..NetBehaviours::default() })
            .collect();
        let mut processors = std::mem::take(&mut self.processors).into_iter();
        let mut routers = std::mem::take(&mut self.routers).into_iter();
        let mut others = std::mem::take(&mut self.others).into_iter();
        for (entity, &place) in std::mem::take(&mut self.places).iter().enumerate() {
            let part = &mut split[usize::from(owner[entity])];
            // Each kind's `Vec` holds its entities in id order, so they come out in that order.
            let index = match place >> INDEX_BITS {
                PROCESSOR => processors.next().map(|slot| {
                    part.processors.push(slot);
                    part.processors.len() - 1
                }),
                ROUTER => routers.next().map(|slot| {
                    part.routers.push(slot);
                    part.routers.len() - 1
                }),
                _ => others.next().map(|slot| {
                    part.others.push(slot);
                    part.others.len() - 1
                }),
            };
            part.places[entity] = (place & !INDEX_MASK) | index.unwrap_or(0) as u32;
        }
        Some(split)
    }

    fn join(&mut self, parts: Vec<NetBehaviours>, owner: &[u16]) {
        let mut sources: Vec<_> = parts
            .into_iter()
            .map(|p| (p.places, p.processors.into_iter(), p.routers.into_iter(), p.others.into_iter()))
            .collect();
        *self = NetBehaviours::with_capacity(owner.len());
        for (entity, &p) in owner.iter().enumerate() {
            let Some((places, processors, routers, others)) = sources.get_mut(usize::from(p)) else {
                continue;
            };
            match places.get(entity).map(|place| place >> INDEX_BITS) {
                Some(PROCESSOR) => {
                    if let Some(slot) = processors.next() {
                        self.place(PROCESSOR, self.processors.len());
                        self.processors.push(slot);
                    }
                }
                Some(ROUTER) => {
                    if let Some(slot) = routers.next() {
                        self.place(ROUTER, self.routers.len());
                        self.routers.push(slot);
                    }
                }
                _ => {
                    if let Some(slot) = others.next() {
                        self.place(OTHER, self.others.len());
                        self.others.push(slot);
                    }
                }
            }
        }
    }
}
