//! The order the timing diagram lists entities in: the trace's order, except that siblings whose
//! names differ only in their numbers are in numeric order (`p2` before `p10`, `r_2_7` before
//! `r_12_7`). Siblings are grouped by their name with the numbers taken out (its *stem*), the
//! stems in the order the trace first names them; the numbers then order each stem's names. Every
//! path component is ordered so, so a compound's members stay together under it.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One path component as sorted: the rank of its stem among its siblings', and its numbers
/// (names equal in both are ordered as text).
type ComponentKey = (u32, Vec<u64>);

/// A name with every run of digits replaced by `#`, and the runs' values (saturating).
fn stem_and_numbers(name: &str) -> (String, Vec<u64>) {
    let mut stem = String::with_capacity(name.len());
    let mut numbers = Vec::new();
    let mut current: Option<u64> = None;
    for c in name.chars() {
        if let Some(d) = c.to_digit(10) {
            current = Some(current.unwrap_or(0).saturating_mul(10).saturating_add(u64::from(d)));
        } else {
            if let Some(n) = current.take() {
                numbers.push(n);
                stem.push('#');
            }
            stem.push(c);
        }
    }
    if let Some(n) = current {
        numbers.push(n);
        stem.push('#');
    }
    (stem, numbers)
}

/// Entity numbers (indices into `paths`) in display order.
pub fn natural_order<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
    let paths: Vec<&'a str> = paths.into_iter().collect();
    // (parent path, stem) → rank, given in the order the trace first names them.
    let mut stems: BTreeMap<(&'a str, String), u32> = BTreeMap::new();
    let mut keys: Vec<(Vec<ComponentKey>, u32)> = Vec::with_capacity(paths.len());
    for (index, path) in paths.iter().enumerate() {
        let mut key = Vec::new();
        let mut parent_end = 0_usize;
        for component in path.split('/') {
            let (stem, numbers) = stem_and_numbers(component);
            let next = stems.len() as u32;
            let parent = &path[..parent_end.saturating_sub(1)];
            let stem_rank = *stems.entry((parent, stem)).or_insert(next);
            key.push((stem_rank, numbers));
            parent_end += component.len() + 1;
        }
        keys.push((key, index as u32));
    }
    keys.sort_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| paths[a.1 as usize].cmp(paths[b.1 as usize])).then(a.1.cmp(&b.1))
    });
    keys.into_iter().map(|(_, index)| index).collect()
}

/// Compare two names as the diagram orders siblings of one stem: by their numbers, then as text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (stem_a, numbers_a) = stem_and_numbers(a);
    let (stem_b, numbers_b) = stem_and_numbers(b);
    stem_a.cmp(&stem_b).then(numbers_a.cmp(&numbers_b)).then(a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered(paths: &[&str]) -> Vec<String> {
        natural_order(paths.iter().copied()).into_iter().map(|i| paths[i as usize].to_string()).collect()
    }

    #[test]
    fn numbers_order_siblings_of_one_stem() {
        let text_order = ["p0", "p1", "p10", "p100", "p11", "p2", "p20", "p3"];
        assert_eq!(ordered(&text_order), ["p0", "p1", "p2", "p3", "p10", "p11", "p20", "p100"]);
        let routers = ["r_1_12", "r_12_7", "r_1_2", "r_2_7"];
        assert_eq!(ordered(&routers), ["r_1_2", "r_1_12", "r_2_7", "r_12_7"]);
    }

    #[test]
    fn stems_keep_the_traces_order_and_compounds_stay_together() {
        let paths = ["p0", "net/core/s10", "net/s1", "p10", "net/core/s2", "p2", "net/s0"];
        assert_eq!(
            ordered(&paths),
            ["p0", "p2", "p10", "net/core/s2", "net/core/s10", "net/s0", "net/s1"],
            "p first (named first), then net with core before the s# routers (core named first)"
        );
    }

    #[test]
    fn the_order_is_a_permutation_and_natural_cmp_agrees_within_a_stem() {
        let paths: Vec<String> = (0..300).rev().map(|i| format!("p{i}")).collect();
        let order = natural_order(paths.iter().map(String::as_str));
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..300).collect::<Vec<u32>>());
        assert!(order.windows(2).all(|w| natural_cmp(&paths[w[0] as usize], &paths[w[1] as usize]).is_lt()));
    }
}
