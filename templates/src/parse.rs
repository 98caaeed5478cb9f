//! Reading a topology: template names (with their aliases), `--dims` text, and the checks that the
//! dimensions make a network — each family's own rules, then the limits every template shares.

use crate::error::TemplateError;
use crate::family::{FamilyInfo, dims_error};
use crate::topology::{FAMILIES, Topology};

use hase_engine::limits::MAX_TEMPLATE_ELEMENTS;
/// Largest number of processors a template generates.
pub use hase_engine::limits::MAX_TEMPLATE_ENDPOINTS as MAX_ENDPOINTS;

/// Every family's names, help and labels, in palette order.
pub fn families() -> impl Iterator<Item = &'static FamilyInfo> {
    FAMILIES.iter().map(|entry| entry.family.info())
}

/// The family called `name` (case, `-` and `_` ignored; aliases such as `torus` or `tree` too).
pub fn family_named(name: &str) -> Option<&'static FamilyInfo> {
    entry_named(name).map(|entry| entry.family.info())
}

/// The list row of the family called `name`.
fn entry_named(name: &str) -> Option<&'static crate::topology::Entry> {
    let key = name.trim().to_ascii_lowercase().replace('-', "_");
    FAMILIES.iter().find(|entry| {
        let info = entry.family.info();
        info.name == key || info.aliases.contains(&key.as_str())
    })
}

impl Topology {
    /// Every template name (`hase new --template <name>`), in palette order.
    pub fn all_names() -> Vec<&'static str> {
        families().map(|info| info.name).collect()
    }

    /// What `--dims` means for the template `name`.
    pub fn dims_help(name: &str) -> Option<&'static str> {
        family_named(name).map(|info| info.dims_help)
    }

    /// Read `--dims` text: numbers separated by `x`, `,`, `;` or spaces (`4x4`, `2,3`,
    /// `2;4,4;1,2;1,2`).
    pub fn parse_dims(text: &str) -> Result<Vec<u32>, TemplateError> {
        if text.len() > 1024 {
            return Err(TemplateError::BadDims {
                text: text.chars().take(24).collect(),
                reason: "longer than 1,024 characters".into(),
            });
        }
        let parts: Vec<&str> = text.split(['x', 'X', ',', ';', ' ', '×']).filter(|t| !t.is_empty()).collect();
        if parts.is_empty() {
            return Err(TemplateError::BadDims { text: text.into(), reason: "no dimensions given".into() });
        }
        parts
            .iter()
            .map(|p| {
                p.parse::<u32>().map_err(|_| TemplateError::BadDims {
                    text: text.into(),
                    reason: format!("`{p}` is not a whole number"),
                })
            })
            .collect()
    }

    /// The topology called `name` (case, `-` and `_` ignored) with `dims`; checks sizes.
    pub fn parse(name: &str, dims: &[u32]) -> Result<Topology, TemplateError> {
        let entry = entry_named(name).ok_or_else(|| TemplateError::UnknownTemplate {
            name: name.into(),
            known: Topology::all_names().join(", "),
        })?;
        let topology = (entry.make)(&entry.family.read_dims(dims)?);
        topology.check()?;
        Ok(topology)
    }

    /// Check that the dimensions make a network: the family's own rules, then at least two
    /// processors, at most [`MAX_ENDPOINTS`], at most `MAX_TEMPLATE_ELEMENTS` entities and links
    /// together (from the closed-form counts, before anything is generated), and switch radices a
    /// port index can address.
    pub fn check(&self) -> Result<(), TemplateError> {
        let family = self.family();
        let template = family.info().name;
        family.check(&self.dims())?;
        if u64::from(self.switch_ports()) > u64::from(u16::MAX) {
            return Err(dims_error(
                template,
                format!("switches of radix {} are too large", self.switch_ports()),
            ));
        }
        let c = self.counts();
        if c.endpoints < 2 {
            return Err(dims_error(template, "at least 2 processors are needed"));
        }
        if c.endpoints > MAX_ENDPOINTS || c.switches > 2 * MAX_ENDPOINTS {
            return Err(dims_error(
                template,
                format!(
                    "{} processors and {} switches exceed the template limit of {MAX_ENDPOINTS} processors",
                    c.endpoints, c.switches
                ),
            ));
        }
        let elements = c.switches.saturating_add(c.endpoints).saturating_add(c.links());
        if elements > MAX_TEMPLATE_ELEMENTS {
            return Err(dims_error(
                template,
                format!(
                    "{} entities and {} links are more than the template limit of {MAX_TEMPLATE_ELEMENTS} \
                     entities and links together",
                    c.switches.saturating_add(c.endpoints),
                    c.links()
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_hand_worked_examples() {
        let c = |t: Topology| {
            let c = t.counts();
            (c.switches, c.endpoints, c.switch_links, c.endpoint_links)
        };
        assert_eq!(c(Topology::Linear { nodes: 5 }), (5, 5, 4, 5));
        assert_eq!(c(Topology::Ring { nodes: 5 }), (5, 5, 5, 5));
        assert_eq!(c(Topology::Ring { nodes: 2 }), (2, 2, 2, 2), "two parallel links");
        assert_eq!(c(Topology::Mesh2D { x: 3, y: 4 }), (12, 12, 17, 12));
        assert_eq!(c(Topology::Torus2D { x: 3, y: 4 }), (12, 12, 24, 12));
        assert_eq!(c(Topology::Torus2D { x: 1, y: 4 }), (4, 4, 4, 4), "no links along an extent of 1");
        assert_eq!(c(Topology::Torus3D { x: 2, y: 3, z: 4 }), (24, 24, 72, 24));
        assert_eq!(c(Topology::Hypercube { dimensions: 3 }), (8, 8, 12, 8));
        assert_eq!(c(Topology::Omega { stages: 3 }), (12, 8, 16, 16));
        assert_eq!(c(Topology::BinaryTree { levels: 3 }), (7, 8, 6, 8));
        assert_eq!(c(Topology::FatTree { arity: 2, levels: 3 }), (12, 8, 16, 8));
        assert_eq!(c(Topology::FatTree { arity: 4, levels: 2 }), (8, 16, 16, 16));
        let pgft = |d: &str| Topology::parse("pgft", &Topology::parse_dims(d).unwrap()).unwrap();
        assert_eq!(c(pgft("2;4,4;1,2;1,2")), (6, 16, 16, 16));
        // The k-ary n-tree is PGFT(n; k…; 1,k…; 1…).
        assert_eq!(c(pgft("3;2,2,2;1,2,2;1,1,1")), c(Topology::FatTree { arity: 2, levels: 3 }));
        let fly = Topology::parse("dragonfly", &[3, 1, 2, 1, 3, 1, 2]).unwrap();
        // 18 routers; green 6 chassis × 3, black 3 groups × 3 positions × 1, blue 3.
        assert_eq!(c(fly), (18, 36, 18 + 9 + 3, 36));
    }

    #[test]
    fn names_and_dims_round_trip() {
        for name in Topology::all_names() {
            assert!(Topology::dims_help(name).is_some(), "{name}");
        }
        let cases = [
            ("linear", "6"),
            ("ring", "7"),
            ("mesh2d", "4x3"),
            ("torus2d", "4x4"),
            ("torus3d", "2x3x4"),
            ("hypercube", "4"),
            ("omega", "16"),
            ("binary_tree", "8"),
            ("fat_tree", "4,2"),
            ("pgft", "2;4,4;1,2;1,2"),
            ("dragonfly", "3,1;2,2;3,1;2"),
        ];
        for (name, dims) in cases {
            let t = Topology::parse(name, &Topology::parse_dims(dims).unwrap()).unwrap();
            assert_eq!(t.name(), name);
            assert_eq!(Topology::parse(t.name(), &t.dims()).unwrap(), t);
        }
        assert_eq!(Topology::parse("Fat-Tree", &[2, 3]).unwrap(), Topology::FatTree { arity: 2, levels: 3 });
        assert_eq!(Topology::parse("omega", &[8]).unwrap(), Topology::Omega { stages: 3 });
        assert_eq!(Topology::Torus3D { x: 2, y: 3, z: 4 }.to_string(), "torus3d 2x3x4");
        assert_eq!(Topology::FatTree { arity: 2, levels: 3 }.type_name(), "FatTree_k2_n3");
        for (name, dims) in cases {
            let t = Topology::parse(name, &Topology::parse_dims(dims).unwrap()).unwrap();
            assert_eq!(t.dims_text(), dims, "{name}");
        }
        let fly = Topology::parse("dragonfly", &[2, 1, 3, 4]).unwrap();
        assert_eq!(fly.to_string(), "dragonfly 2,1;1,1;3,1;4");
    }

    #[test]
    fn bad_names_and_sizes_are_explained() {
        let err = Topology::parse("slimfly", &[4]).unwrap_err();
        assert!(err.to_string().contains("unknown template `slimfly`"), "{err}");
        assert!(err.to_string().contains("fat_tree"), "{err}");
        let err = Topology::parse("omega", &[6]).unwrap_err();
        assert_eq!(err.to_string(), "template omega: 6 processors is not a power of two ≥ 2");
        let err = Topology::parse("mesh2d", &[4]).unwrap_err();
        assert!(err.to_string().contains("XxY"), "{err}");
        assert!(Topology::parse("torus2d", &[0, 4]).is_err());
        assert!(Topology::parse("linear", &[1]).is_err());
        assert!(Topology::parse("torus3d", &[256, 256, 256]).is_err(), "16 M processors is too many");
        assert!(Topology::parse_dims("4xfour").is_err());
        assert_eq!(Topology::parse_dims("4 x 4").unwrap(), vec![4, 4]);
        let err = Topology::parse("pgft", &[2, 4, 4, 2, 2, 1, 1]).unwrap_err();
        assert!(err.to_string().contains("first parent and cable counts must be 1"), "{err}");
        assert!(Topology::parse("pgft", &[2, 4, 4, 1, 2]).is_err(), "three vectors of h entries");
        let err = Topology::parse("dragonfly", &[5, 1, 2, 1]).unwrap_err();
        assert!(err.to_string().contains("5 groups need a blue link"), "{err}");
    }

    #[test]
    fn templates_too_large_to_build_are_refused_from_their_counts() {
        // Exactly the processor limit, but 2 M entities and 11 M links: 3.7 GB when generated.
        let err = Topology::parse("hypercube", &[20]).unwrap_err().to_string();
        assert!(err.contains("2097152 entities and 11534336 links"), "{err}");
        assert!(err.contains("limit of 4194304"), "{err}");
        assert!(Topology::parse("torus2d", &[1024, 1024]).is_err(), "2 M entities, 3 M links");
        assert!(Topology::parse("linear", &[(1 << 20) + 1]).is_err(), "more processors than the limit");
        // The largest networks people run still fit: the million-entity torus the README and the
        // scale bench use, a 256×256 torus, a 16-cube.
        assert!(Topology::parse("torus2d", &[512, 1024]).is_ok());
        assert!(Topology::parse("torus2d", &[256, 256]).is_ok());
        assert!(Topology::parse("hypercube", &[16]).is_ok());
    }
}
