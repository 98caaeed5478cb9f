//! Parsing of the text form's header, one line at a time: `$hase-trace <version>`, `project`,
//! `seed`, `level`, then the sections `$types`, `$params`, `$ports`, `$groups`, `$bars`, `$links`
//! in that order (the optional ones may be left out) up to `$events`. Every reference is checked
//! as it is read, so a header that parses is consistent.

use super::check::TypeRow;
use super::error::LineError;
use super::record::{EntityInfo, GroupInfo, LinkInfo, TraceHeader, TraceLevel};
use super::tokens::Tokens;
use super::version::FORMAT_VERSION;
use std::sync::Arc;

/// Sections in their required order, and whether each must appear.
const SECTIONS: [(&str, bool); 7] = [
    ("$types", true),
    ("$params", false),
    ("$ports", false),
    ("$groups", false),
    ("$bars", true),
    ("$links", false),
    ("$events", true),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Magic,
    Project,
    Seed,
    Level,
    FirstSection,
    /// Rows of the section at this position in [`SECTIONS`].
    Rows(usize),
}

/// Builds a [`TraceHeader`] from the header lines of a text trace.
pub(crate) struct HeaderParser {
    expect: Expect,
    header: TraceHeader,
    types: Vec<TypeRow>,
    last_list_row: Option<u32>,
    bars: Vec<(String, u32, Option<u32>)>,
}

/// What the parser needs next.
pub(crate) enum Step {
    /// Another header line.
    More,
    /// `$events` was read: the header is complete.
    Done(TraceHeader),
}

impl HeaderParser {
    pub(crate) fn new() -> Self {
        HeaderParser {
            expect: Expect::Magic,
            header: TraceHeader::default(),
            types: Vec::new(),
            last_list_row: None,
            bars: Vec::new(),
        }
    }

    /// What the parser wanted when the file ended.
    pub(crate) fn expected_at_end(&self) -> String {
        match self.expect {
            Expect::Magic => "expected `$hase-trace <version>` on the first line".into(),
            Expect::Project => "expected `project <name>`".into(),
            Expect::Seed => "expected `seed <number>`".into(),
            Expect::Level => "expected `level <1-5>`".into(),
            Expect::FirstSection => "expected `$types`".into(),
            Expect::Rows(_) => "expected more header sections up to `$events`".into(),
        }
    }

    /// Feed one line (without its end-of-line).
    pub(crate) fn feed(&mut self, line: &str) -> Result<Step, LineError> {
        let mut t = Tokens::new(line);
        match self.expect {
            Expect::Magic => {
                let word = t.string("`$hase-trace <version>` on the first line")?;
                if word != "$hase-trace" {
                    return Err(LineError::new(
                        0,
                        format!("expected `$hase-trace <version>` on the first line, found `{word}`"),
                    ));
                }
                let (version, at) = t.number::<u32>("a format version after `$hase-trace`")?;
                if version > FORMAT_VERSION {
                    return Err(LineError::new(
                        at,
                        format!(
                            "trace format version {version} is newer than this build supports \
                             (up to {FORMAT_VERSION})"
                        ),
                    ));
                }
                if version == 0 {
                    return Err(LineError::new(at, "trace format version 0 does not exist"));
                }
                t.end("the version")?;
                self.header.version = version;
                self.expect = Expect::Project;
            }
            Expect::Project => {
                keyword(&mut t, "project", "`project <name>`")?;
                self.header.project = t.string("a project name after `project`")?.into_owned();
                t.end("the project name")?;
                self.expect = Expect::Seed;
            }
            Expect::Seed => {
                keyword(&mut t, "seed", "`seed <number>`")?;
                self.header.seed = t.number("a seed number after `seed`")?.0;
                t.end("the seed")?;
                self.expect = Expect::Level;
            }
            Expect::Level => {
                keyword(&mut t, "level", "`level <1-5>`")?;
                let (level, at) = t.number::<u8>("a trace level (1-5) after `level`")?;
                TraceLevel::new(level).map_err(|m| LineError::new(at, m))?;
                t.end("the level")?;
                self.header.level = level;
                self.expect = Expect::FirstSection;
            }
            Expect::FirstSection => {
                keyword(&mut t, "$types", "`$types`")?;
                t.end("`$types`")?;
                self.expect = Expect::Rows(0);
            }
            Expect::Rows(current) => {
                if line.starts_with('$') {
                    return self.section(&mut t, current);
                }
                self.row(&mut t, current)?;
            }
        }
        Ok(Step::More)
    }

    /// A `$section` line while in section `current`.
    fn section(&mut self, t: &mut Tokens<'_>, current: usize) -> Result<Step, LineError> {
        let word = t.string("a section name")?;
        let Some(next) = SECTIONS.iter().position(|(name, _)| *name == word) else {
            return Err(LineError::new(0, format!("unknown section `{word}`")));
        };
        let allowed: Vec<&str> = allowed_after(current).collect();
        if !allowed.contains(&SECTIONS[next].0) {
            return Err(LineError::new(
                0,
                format!(
                    "section `{word}` is out of order: expected {}",
                    allowed.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(" or ")
                ),
            ));
        }
        t.end(format_args!("`{word}`"))?;
        self.last_list_row = None;
        if SECTIONS[next].0 == "$events" {
            return Ok(Step::Done(self.build()));
        }
        self.expect = Expect::Rows(next);
        Ok(Step::More)
    }

    /// One row of section `current`.
    fn row(&mut self, t: &mut Tokens<'_>, current: usize) -> Result<(), LineError> {
        match SECTIONS[current].0 {
            "$types" => {
                let expected = self.types.len() as u32;
                index_row(t, expected, "type")?;
                let name = t.string("a type name")?.into_owned();
                let mut states = Vec::new();
                while let Some(s) = t.next_token()? {
                    states.push(s.text.into_owned());
                }
                self.types.push(TypeRow { name, states, params: Vec::new(), ports: Vec::new() });
            }
            section @ ("$params" | "$ports") => {
                let (ty, at) = t.number::<u32>("a type index")?;
                if ty as usize >= self.types.len() {
                    return Err(LineError::new(
                        at,
                        format!("type {ty} does not exist (`$types` lists {})", self.types.len()),
                    ));
                }
                if self.last_list_row.is_some_and(|last| ty <= last) {
                    return Err(LineError::new(at, format!("type {ty} is out of order or repeated")));
                }
                self.last_list_row = Some(ty);
                let mut names = Vec::new();
                while let Some(s) = t.next_token()? {
                    names.push(s.text.into_owned());
                }
                let row = &mut self.types[ty as usize];
                if section == "$params" {
                    row.params = names;
                } else {
                    row.ports = names;
                }
            }
            "$groups" => {
                let index = self.header.groups.len() as u32;
                index_row(t, index, "group")?;
                let path = t.string("a group path")?.into_owned();
                let type_name = t.string("a group type name")?.into_owned();
                let (parent, at) = t.optional_number::<u32>("a parent group index")?;
                if parent.is_some_and(|p| p >= index) {
                    return Err(LineError::new(at, "a group's parent must be an earlier group".to_string()));
                }
                t.end("the parent group")?;
                self.header.groups.push(GroupInfo { path, type_name, parent });
            }
            "$bars" => {
                let index = self.bars.len() as u32;
                index_row(t, index, "entity")?;
                let path = t.string("an entity path")?.into_owned();
                if path.len() > crate::limits::MAX_PATH_BYTES {
                    return Err(LineError::new(
                        0,
                        format!(
                            "entity {index}: a path of {} bytes; the limit is {}",
                            path.len(),
                            crate::limits::MAX_PATH_BYTES
                        ),
                    ));
                }
                let (ty, at) = t.number::<u32>(format_args!("a type index after entity {index}"))?;
                if ty as usize >= self.types.len() {
                    return Err(LineError::new(
                        at,
                        format!("type {ty} does not exist (`$types` lists {})", self.types.len()),
                    ));
                }
                let (group, at) = t.optional_number::<u32>(format_args!("a group index after type {ty}"))?;
                if group.is_some_and(|g| g as usize >= self.header.groups.len()) {
                    return Err(LineError::new(
                        at,
                        format!(
                            "group {} does not exist (`$groups` lists {})",
                            group.unwrap_or_default(),
                            self.header.groups.len()
                        ),
                    ));
                }
                t.end("the group")?;
                self.bars.push((path, ty, group));
            }
            "$links" => {
                let mut ends = [(0_u32, 0_u16); 2];
                for end in &mut ends {
                    let (entity, at) = t.number::<u32>("an entity index")?;
                    let Some(&(_, ty, _)) = self.bars.get(entity as usize) else {
                        return Err(LineError::new(
                            at,
                            format!("entity {entity} does not exist (`$bars` lists {})", self.bars.len()),
                        ));
                    };
                    let (port, at) = t.number::<u16>(format_args!("a port index after entity {entity}"))?;
                    let ports = self.types[ty as usize].ports.len();
                    if usize::from(port) >= ports {
                        return Err(LineError::new(
                            at,
                            format!("port {port} does not exist for entity {entity} (its type has {ports})"),
                        ));
                    }
                    *end = (entity, port);
                }
                t.end("the second port")?;
                self.header.links.push(LinkInfo { a: ends[0], b: ends[1] });
            }
            other => return Err(LineError::new(0, format!("no rows are allowed in `{other}`"))),
        }
        Ok(())
    }

    fn build(&mut self) -> TraceHeader {
        let mut header = std::mem::take(&mut self.header);
        // Every entity of a type shares its type's name lists.
        let lists: Vec<[Arc<[String]>; 3]> = self.types.iter().map(TypeRow::shared_lists).collect();
        header.entities = self
            .bars
            .drain(..)
            .map(|(path, ty, group)| {
                let (t, [states, params, ports]) = (&self.types[ty as usize], &lists[ty as usize]);
                EntityInfo {
                    path,
                    type_name: t.name.clone(),
                    states: Arc::clone(states),
                    params: Arc::clone(params),
                    ports: Arc::clone(ports),
                    group,
                }
            })
            .collect();
        header
    }
}

/// Sections that may follow section `current`: later ones, up to and including the next required.
fn allowed_after(current: usize) -> impl Iterator<Item = &'static str> {
    let stop = SECTIONS
        .iter()
        .enumerate()
        .skip(current + 1)
        .find(|(_, (_, required))| *required)
        .map_or(SECTIONS.len() - 1, |(i, _)| i);
    SECTIONS[current + 1..=stop].iter().map(|(name, _)| *name)
}

fn keyword(t: &mut Tokens<'_>, word: &str, what: &str) -> Result<(), LineError> {
    let found = t.expect(what)?;
    if found.text != word {
        return Err(LineError::new(found.byte, format!("expected {what}, found `{}`", found.text)));
    }
    Ok(())
}

/// The leading index of a row, which must equal the row's position.
fn index_row(t: &mut Tokens<'_>, expected: u32, what: &str) -> Result<(), LineError> {
    let (index, at) = t.number::<u32>(format_args!("{what} index {expected}"))?;
    if index != expected {
        return Err(LineError::new(at, format!("expected {what} index {expected}, found {index}")));
    }
    Ok(())
}
