//! Points: the variables' values combined (cross product, zip, or zipped groups crossed with each
//! other), then filtered by the constraint. A point is one value index per variable; points are
//! numbered 0, 1, … in combination order after the constraint, which is the order of every result
//! listing. The constraint is an `evalexpr` expression over the variables by name (integers and
//! times as integers — times in picoseconds —, numbers as floats, everything else as strings).

use std::collections::BTreeMap;

use evalexpr::{Context, EvalexprError, EvalexprResult, Node, Value};
use hase_engine::limits::{MAX_EXPRESSION_CHARS, MAX_EXPRESSION_DEPTH, quote};
use hase_engine::model::ParamValue;

use super::spec::Combination;
use super::variables::{Variable, expression_name};

/// Most points one experiment may have (before the constraint).
pub const MAX_POINTS: u64 = hase_engine::limits::MAX_SWEEP_POINTS;

/// Why points cannot be made from the variables, or the constraint not read or evaluated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PointsError {
    /// Zipped variables with different numbers of values.
    #[error(
        "zipped variables need as many values each: `{first}` has {first_count}, `{other}` has {other_count}"
    )]
    ZipLengths {
        /// The unit's first variable.
        first: String,
        /// Its number of values.
        first_count: usize,
        /// A variable with another number.
        other: String,
        /// That number.
        other_count: usize,
    },
    /// More points than an experiment may have.
    #[error("the variables make more than {MAX_POINTS} points")]
    TooMany,
    /// A group naming something that is not a variable.
    #[error("group names `{name}`, which is not a variable (variables: {variables})")]
    UnknownInGroup {
        /// The name.
        name: String,
        /// The variables, comma-separated.
        variables: String,
    },
    /// A variable in two groups.
    #[error("variable `{name}` is in two groups")]
    TwoGroups {
        /// The variable.
        name: String,
    },
    /// A constraint longer or more deeply nested than the limits allow (checked before parsing,
    /// so that no hostile expression reaches the recursive parser).
    #[error("`{text}`: {what} is {found}, more than the limit of {limit}")]
    TooComplex {
        /// The constraint, quoted short.
        text: String,
        /// What is over the limit: "its length in characters" or "its nesting".
        what: &'static str,
        /// The length or the depth found.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// A constraint that is not an expression (the parser's reason printed through the guard: it
    /// quotes the expression's characters).
    #[error("`{text}`: {}", hase_engine::limits::short_error(&.source.to_string()))]
    Syntax {
        /// The constraint.
        text: String,
        /// The expression parser's reason.
        source: evalexpr::EvalexprError,
    },
    /// A constraint naming something that is not a variable.
    #[error("`{text}`: `{unknown}` is not a variable; variables are {variables}")]
    UnknownName {
        /// The constraint.
        text: String,
        /// The name.
        unknown: String,
        /// The variables' names in the constraint, comma-separated.
        variables: String,
    },
    /// A constraint that cannot be evaluated at a point.
    #[error("`{text}` at {point}: {}", hase_engine::limits::short_error(&.source.to_string()))]
    Evaluation {
        /// The constraint.
        text: String,
        /// The point's values (`bytes=1024, p=4`).
        point: String,
        /// The evaluator's reason.
        source: evalexpr::EvalexprError,
    },
}

/// Combine the variables' values; each entry is one value index per variable. Errors name the
/// variables at fault.
pub fn combine(variables: &[Variable], combination: &Combination) -> Result<Vec<Vec<usize>>, PointsError> {
    let lengths: Vec<usize> = variables.iter().map(|v| v.values.len()).collect();
    let units: Vec<Vec<usize>> = match combination {
        Combination::Cross => (0..variables.len()).map(|i| vec![i]).collect(),
        Combination::Zip if variables.is_empty() => Vec::new(),
        Combination::Zip => vec![(0..variables.len()).collect()],
        Combination::Groups(groups) => grouped_units(variables, groups)?,
    };
    let mut sizes = Vec::with_capacity(units.len());
    for unit in &units {
        let first = lengths[unit[0]];
        if let Some(&other) = unit.iter().find(|&&i| lengths[i] != first) {
            return Err(PointsError::ZipLengths {
                first: variables[unit[0]].name.clone(),
                first_count: first,
                other: variables[other].name.clone(),
                other_count: lengths[other],
            });
        }
        sizes.push(first as u64);
    }
    let total = sizes.iter().try_fold(1_u64, |a, s| a.checked_mul(*s)).filter(|t| *t <= MAX_POINTS);
    let total = total.ok_or(PointsError::TooMany)?;
    let mut points = Vec::with_capacity(total as usize);
    for mut n in 0..total {
        let mut choice = vec![0; variables.len()];
        // The last unit changes fastest.
        for (unit, size) in units.iter().zip(&sizes).rev() {
            let index = (n % size) as usize;
            n /= size;
            for &variable in unit {
                choice[variable] = index;
            }
        }
        points.push(choice);
    }
    Ok(points)
}

/// Units of a grouped combination: each group (by variable name) and each variable in no group,
/// ordered by their first variable.
fn grouped_units(variables: &[Variable], groups: &[Vec<String>]) -> Result<Vec<Vec<usize>>, PointsError> {
    let mut unit_of: BTreeMap<usize, usize> = BTreeMap::new();
    let mut units: Vec<Vec<usize>> = Vec::new();
    for group in groups {
        let mut unit = Vec::new();
        for name in group {
            let index = variables.iter().position(|v| &v.name == name).ok_or_else(|| {
                let names: Vec<&str> = variables.iter().map(|v| v.name.as_str()).collect();
                PointsError::UnknownInGroup { name: name.clone(), variables: names.join(", ") }
            })?;
            if unit_of.insert(index, units.len()).is_some() {
                return Err(PointsError::TwoGroups { name: name.clone() });
            }
            unit.push(index);
        }
        if !unit.is_empty() {
            units.push(unit);
        }
    }
    for index in 0..variables.len() {
        if let std::collections::btree_map::Entry::Vacant(slot) = unit_of.entry(index) {
            slot.insert(units.len());
            units.push(vec![index]);
        }
    }
    units.sort_by_key(|u| u.iter().copied().min());
    Ok(units)
}

/// The constraint, parsed and checked against the variable names.
#[derive(Debug)]
pub struct Constraint {
    text: String,
    tree: Node,
}

impl Constraint {
    /// Parse `text`; every identifier must name a variable (the error lists them).
    pub fn parse(text: &str, variables: &[Variable]) -> Result<Self, PointsError> {
        check_complexity(text)?;
        let tree = evalexpr::build_operator_tree(text)
            .map_err(|source| PointsError::Syntax { text: quote(text), source })?;
        let known: Vec<String> = variables.iter().map(|v| expression_name(&v.name)).collect();
        if let Some(unknown) = tree.iter_variable_identifiers().find(|id| !known.iter().any(|k| k == id)) {
            return Err(PointsError::UnknownName {
                text: quote(text),
                unknown: quote(unknown),
                variables: known.join(", "),
            });
        }
        Ok(Constraint { text: text.to_string(), tree })
    }

    /// Whether the point `choice` is kept.
    pub fn keeps(&self, variables: &[Variable], choice: &[usize]) -> Result<bool, PointsError> {
        let context = PointContext::new(variables, choice);
        match self.tree.eval_boolean_with_context(&context) {
            Ok(keep) => Ok(keep),
            Err(source) => {
                let values: Vec<String> = variables
                    .iter()
                    .zip(choice)
                    .map(|(v, i)| format!("{}={}", v.name, v.values[*i].text))
                    .collect();
                Err(PointsError::Evaluation { text: quote(&self.text), point: values.join(", "), source })
            }
        }
    }
}

/// Keep the points the constraint accepts (all, without one).
pub fn filter(
    variables: &[Variable],
    points: Vec<Vec<usize>>,
    constraint: Option<&Constraint>,
) -> Result<Vec<Vec<usize>>, PointsError> {
    let Some(constraint) = constraint else { return Ok(points) };
    let mut kept = Vec::new();
    for choice in points {
        if constraint.keeps(variables, &choice)? {
            kept.push(choice);
        }
    }
    Ok(kept)
}

/// Refuse an expression longer than [`MAX_EXPRESSION_CHARS`], or nested deeper than
/// [`MAX_EXPRESSION_DEPTH`] (open parentheses plus a run of prefix operators `!`, `-`), before the
/// recursive parser sees it.
fn check_complexity(text: &str) -> Result<(), PointsError> {
    let too = |what, found, limit| PointsError::TooComplex { text: quote(text), what, found, limit };
    let length = text.chars().count();
    if length > MAX_EXPRESSION_CHARS {
        return Err(too("its length in characters", length, MAX_EXPRESSION_CHARS));
    }
    let (mut open, mut prefix_run, mut deepest) = (0usize, 0usize, 0usize);
    for c in text.chars() {
        match c {
            '(' => open += 1,
            ')' => open = open.saturating_sub(1),
            '!' | '-' => prefix_run += 1,
            c if c.is_whitespace() => continue,
            _ => prefix_run = 0,
        }
        if c == '(' {
            prefix_run = 0;
        }
        deepest = deepest.max(open + prefix_run);
    }
    if deepest > MAX_EXPRESSION_DEPTH {
        return Err(too("its nesting", deepest, MAX_EXPRESSION_DEPTH));
    }
    Ok(())
}

/// The variables of one point, as an evalexpr context (sorted map: no hashing).
struct PointContext {
    values: BTreeMap<String, Value>,
}

impl PointContext {
    fn new(variables: &[Variable], choice: &[usize]) -> Self {
        let values = variables
            .iter()
            .zip(choice)
            .map(|(v, i)| {
                let value = match &v.values[*i].value {
                    ParamValue::Int(n) => Value::Int(*n),
                    ParamValue::Time(t) => Value::Int(i64::try_from(t.as_ps()).unwrap_or(i64::MAX)),
                    ParamValue::Float(x) => Value::Float(*x),
                    ParamValue::Bool(b) => Value::Boolean(*b),
                    _ => Value::String(v.values[*i].text.clone()),
                };
                (expression_name(&v.name), value)
            })
            .collect();
        PointContext { values }
    }
}

impl Context for PointContext {
    fn get_value(&self, identifier: &str) -> Option<&Value> {
        self.values.get(identifier)
    }

    fn call_function(&self, identifier: &str, _argument: &Value) -> EvalexprResult<Value> {
        Err(EvalexprError::FunctionIdentifierNotFound(identifier.to_string()))
    }

    fn are_builtin_functions_disabled(&self) -> bool {
        false
    }

    fn set_builtin_functions_disabled(&mut self, _disabled: bool) -> EvalexprResult<()> {
        Err(EvalexprError::CustomMessage("the builtin functions are always available".into()))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::experiment::variables::{VariableTarget, VariableValue};

    fn variable(name: &str, values: &[i64]) -> Variable {
        Variable {
            name: name.into(),
            target: name.into(),
            kind: VariableTarget::Set(name.into()),
            values: values
                .iter()
                .map(|v| VariableValue { text: v.to_string(), value: ParamValue::Int(*v), recipe: None })
                .collect(),
        }
    }

    #[test]
    fn cross_zip_and_groups() {
        let vars = [variable("a", &[1, 2]), variable("b", &[10, 20, 30]), variable("c", &[5, 6])];
        let cross = combine(&vars, &Combination::Cross).unwrap();
        assert_eq!(cross.len(), 12);
        assert_eq!(cross[..4], [vec![0, 0, 0], vec![0, 0, 1], vec![0, 1, 0], vec![0, 1, 1]]);
        let err = combine(&vars, &Combination::Zip).unwrap_err().to_string();
        assert!(err.contains("`a` has 2, `b` has 3"), "{err}");
        let grouped = combine(&vars, &Combination::Groups(vec![vec!["c".into(), "a".into()]])).unwrap();
        assert_eq!(
            grouped,
            [vec![0, 0, 0], vec![0, 1, 0], vec![0, 2, 0], vec![1, 0, 1], vec![1, 1, 1], vec![1, 2, 1]]
        );
        let err = combine(&vars, &Combination::Groups(vec![vec!["d".into()]])).unwrap_err().to_string();
        assert!(err.contains("`d`") && err.contains("a, b, c"), "{err}");
        assert_eq!(
            combine(&[], &Combination::Cross).unwrap(),
            [Vec::<usize>::new()],
            "no variables: one point"
        );
    }

    #[test]
    fn hostile_constraints_are_refused_before_parsing_with_a_short_quote() {
        let vars = [variable("a", &[1, 2])];
        // 40,000 nested parentheses overflowed the parser's stack.
        let deep = format!("{}a > 0{}", "(".repeat(40_000), ")".repeat(40_000));
        let err = Constraint::parse(&deep, &vars).unwrap_err();
        assert!(matches!(err, PointsError::TooComplex { what: "its length in characters", .. }), "{err}");
        let nested = format!("{}a > 0{}", "(".repeat(100), ")".repeat(100));
        let err = Constraint::parse(&nested, &vars).unwrap_err();
        assert!(matches!(err, PointsError::TooComplex { what: "its nesting", found: 100, .. }), "{err}");
        // A long chain of `!` was quadratic.
        let chain = format!("{}(a > 0)", "!".repeat(3000));
        let err = Constraint::parse(&chain, &vars).unwrap_err();
        assert!(matches!(err, PointsError::TooComplex { what: "its nesting", .. }), "{err}");
        assert!(err.to_string().chars().count() < 200, "{err}");
        // Ordinary expressions, with minus signs and not-equal, still parse.
        let ok = format!("{}a != -1{} && a - 1 >= -(-1)", "(".repeat(10), ")".repeat(10));
        assert!(Constraint::parse(&ok, &vars).is_ok());
        // Unknown names quote the constraint at most 60 characters long, without control characters.
        let long = format!("zz\u{1b}[31m > {}", "1 + ".repeat(500) + "1");
        let err = Constraint::parse(&long, &vars).unwrap_err().to_string();
        assert!(!err.contains('\u{1b}') && err.chars().count() < 200, "{err}");
    }

    #[test]
    fn constraints_drop_points_and_name_unknown_variables() {
        let vars = [variable("workload.message_bytes", &[1024, 2048, 4096]), variable("p", &[2, 4, 8])];
        let constraint = Constraint::parse("workload.message_bytes / p >= 512", &vars).unwrap();
        let kept = filter(&vars, combine(&vars, &Combination::Cross).unwrap(), Some(&constraint)).unwrap();
        let pairs: Vec<(i64, i64)> =
            kept.iter().map(|c| ([1024, 2048, 4096][c[0]], [2, 4, 8][c[1]])).collect();
        assert_eq!(pairs, [(1024, 2), (2048, 2), (2048, 4), (4096, 2), (4096, 4), (4096, 8)]);
        let err = Constraint::parse("q > 1", &vars).unwrap_err().to_string();
        assert!(err.contains("`q` is not a variable") && err.contains("workload.message_bytes, p"), "{err}");
        let err = Constraint::parse("p ) 1", &vars).unwrap_err().to_string();
        assert!(err.contains("p ) 1"), "{err}");
        let not_boolean = Constraint::parse("p + 1", &vars).unwrap();
        let err = filter(&vars, vec![vec![0, 0]], Some(&not_boolean)).unwrap_err().to_string();
        assert!(err.contains("p=2"), "{err}");
    }

    proptest! {
        /// A cross product has the product of the lengths, every combination exactly once, in
        /// odometer order (the last variable fastest).
        #[test]
        fn cross_products_are_complete_and_ordered(lengths in prop::collection::vec(1usize..5, 0..4)) {
            let vars: Vec<Variable> = lengths
                .iter()
                .enumerate()
                .map(|(i, n)| variable(&format!("v{i}"), &(0..*n as i64).collect::<Vec<_>>()))
                .collect();
            let points = combine(&vars, &Combination::Cross).unwrap();
            prop_assert_eq!(points.len(), lengths.iter().product::<usize>());
            prop_assert!(points.windows(2).all(|w| w[0] < w[1]), "strictly increasing: each once, in order");
        }

        /// Zipping equal-length variables pairs value i with value i.
        #[test]
        fn zips_pair_values_by_position(n in 1usize..20, k in 1usize..4) {
            let vars: Vec<Variable> = (0..k).map(|i| variable(&format!("v{i}"), &(0..n as i64).collect::<Vec<_>>())).collect();
            let points = combine(&vars, &Combination::Zip).unwrap();
            prop_assert_eq!(points.len(), n);
            for (i, p) in points.iter().enumerate() {
                prop_assert!(p.iter().all(|&x| x == i));
            }
        }

        /// A constraint keeps exactly the points for which it holds.
        #[test]
        fn constraints_keep_exactly_what_they_accept(limit in 0i64..40) {
            let vars = [variable("a", &[1, 2, 3, 4, 5]), variable("b", &[1, 2, 3, 4, 5, 6])];
            let constraint = Constraint::parse(&format!("a * b <= {limit}"), &vars).unwrap();
            let all = combine(&vars, &Combination::Cross).unwrap();
            let kept = filter(&vars, all.clone(), Some(&constraint)).unwrap();
            let want: Vec<Vec<usize>> = all.into_iter().filter(|c| ((c[0] + 1) * (c[1] + 1)) as i64 <= limit).collect();
            prop_assert_eq!(kept, want);
        }
    }
}
