//! What the far view (see `raster`) shows of a run at one moment: each canvas link's load over the
//! load window, each node's state colour and the messages on the wire. Worked out once for a
//! moment and kept while the moment, the load window and the run stay, so that a zoom or pan step
//! at the same moment only places them again.

use egui::Color32;

use super::frame::CanvasFrame;
use crate::ui::animator::overlay;
use crate::ui::animator::replay_frame::ReplayFrame;

/// A run's look at one moment, by canvas link and node.
#[derive(Default)]
pub struct Moment {
    key: Option<MomentKey>,
    /// Load of each canvas link (0 idle, 1 saturated).
    pub loads: Vec<f32>,
    /// State colour of each canvas node that shows entities.
    pub node_colours: Vec<Option<Color32>>,
    /// Messages on the wire: `(link, forward, fraction of the way along)`.
    pub packets: Vec<(usize, bool, f32)>,
    per_link: Vec<u32>,
}

/// Everything a moment's look depends on.
#[derive(Clone, Debug, PartialEq)]
struct MomentKey {
    /// The run (its address, end, flights and events tell runs apart).
    run: (usize, u64, usize, usize),
    /// The trace-to-canvas map's build.
    map_build: u64,
    time_ps: u64,
    window: (u64, u64),
    /// Messages departed and arrived by the moment (the snapshot seeked there).
    moved: (usize, usize),
    /// The idle and busy colours (the theme).
    colours: (Color32, Color32),
}

impl Moment {
    /// Make this the look of `o` on the canvas of `f`, working it out unless the one kept is of
    /// the same moment. Returns true if it was worked out.
    pub fn ensure(&mut self, f: &CanvasFrame<'_>, o: &ReplayFrame<'_>) -> bool {
        let key = MomentKey {
            run: (
                std::ptr::from_ref(o.replay) as usize,
                o.replay.end.0,
                o.replay.flights().len(),
                o.replay.log.events.len(),
            ),
            map_build: o.map.build,
            time_ps: o.time.0,
            window: o.window,
            moved: (o.snap.departed, o.snap.arrived),
            colours: (o.colours.idle, o.colours.busy),
        };
        // A map outside a cache (build 0) may change without its build telling.
        if o.map.build != 0
            && self.key.as_ref() == Some(&key)
            && self.loads.len() == f.scene.links.len()
            && self.node_colours.len() == f.scene.nodes.len()
        {
            return false;
        }
        self.loads.clear();
        self.loads.extend((0..f.scene.links.len()).map(|l| {
            o.map.trace_links_of_link.get(l).map_or(0.0, |trace_links| overlay::link_load(o, trace_links))
        }));
        self.node_colours.clear();
        self.node_colours.extend((0..f.scene.nodes.len()).map(|i| {
            let entities = o.map.entities_of_node.get(i).filter(|e| !e.is_empty())?;
            let direct = entities.len() == 1 && o.map.direct[entities[0] as usize];
            Some(overlay::node_state(o, entities, direct).colour)
        }));
        overlay::flights_on_links(f, o, &mut self.per_link, &mut self.packets);
        self.key = Some(key);
        true
    }

    /// Forget the look kept.
    pub fn clear(&mut self) {
        *self = Moment::default();
    }
}
