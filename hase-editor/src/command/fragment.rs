//! The data of two edits: a clipboard [`Fragment`] (copied instances and the links among them)
//! and an [`Alignment`] of a selection.

use std::collections::BTreeMap;

use hase_engine::model::{Instance, Link, ParamDisplay, Pos};

/// Copied instances with the links among them, as the clipboard holds them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fragment {
    /// Name, instance, position and display choices of each copied instance.
    pub instances: Vec<(String, Instance, Pos, BTreeMap<String, ParamDisplay>)>,
    /// Links whose both ends were copied.
    pub links: Vec<Link>,
}

/// Ways of aligning a selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alignment {
    /// Same x as the leftmost.
    Left,
    /// Same x as the mean.
    CentreHorizontal,
    /// Same x as the rightmost.
    Right,
    /// Same y as the topmost.
    Top,
    /// Same y as the mean.
    Middle,
    /// Same y as the lowest.
    Bottom,
    /// Equal horizontal gaps between the leftmost and rightmost (order kept).
    DistributeHorizontal,
    /// Equal vertical gaps between the topmost and lowest (order kept).
    DistributeVertical,
}
