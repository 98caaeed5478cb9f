//! The fit recovers known formulas from generated data, exact and with noise, and says what is
//! wrong with data it cannot fit.

use super::*;

fn grid(ps: &[f64], ns: &[f64], time: impl Fn(f64, f64) -> f64) -> Vec<Sample> {
    let mut out = Vec::new();
    for &p in ps {
        for &n in ns {
            out.push(Sample { at: Point { p, n, g: 0.0 }, time: time(p, n) });
        }
    }
    out
}

/// Deterministic noise in [−1, 1) for sample `i`.
fn noise(i: usize) -> f64 {
    let x = ((i as f64 + 1.0) * 12.9898).sin() * 43_758.545_3;
    2.0 * (x - x.floor()) - 1.0
}

fn terms_of(fit: &Fit) -> Vec<Term> {
    fit.terms.iter().map(|t| t.term).collect()
}

#[test]
fn an_exact_formula_in_p_and_n_is_recovered_exactly() {
    let samples = grid(&[2.0, 4.0, 8.0, 16.0, 32.0], &[1024.0, 4096.0, 16_384.0], |p, n| {
        5.0 + 3.0 * n / p + 2.0 * p.log2()
    });
    let selection = select_formula(&samples, Term::family(true, true), 3).unwrap();
    let best = &selection.best;
    assert_eq!(terms_of(best), [Term::One, Term::LogP, Term::NOverP], "{best}");
    for (term, want) in [(Term::One, 5.0), (Term::LogP, 2.0), (Term::NOverP, 3.0)] {
        assert!((best.coefficient(term) - want).abs() < 1e-8, "{term}: {best}");
    }
    assert!(best.r_squared > 1.0 - 1e-12 && best.max_relative_error < 1e-10, "{best:?}");
    // 15 terms: 15 + 105 + 455 formulas of up to three terms.
    assert_eq!(selection.considered, 575);
    let far = best.predict(Point { p: 1024.0, n: 1e6, g: 0.0 });
    let exact = 5.0 + 3.0 * 1e6 / 1024.0 + 2.0 * 10.0;
    assert!((far.time - exact).abs() < 1e-6 * exact && far.std_error < 1e-6 * exact, "{far:?}");
}

#[test]
fn a_noisy_formula_is_recovered_within_its_errors_and_extrapolates() {
    let truth = |p: f64, n: f64| 1000.0 + 50.0 * n * p.log2() / p + 20.0 * p;
    let mut samples = grid(&[2.0, 4.0, 8.0, 16.0, 32.0, 64.0], &[256.0, 1024.0, 4096.0], truth);
    for (i, s) in samples.iter_mut().enumerate() {
        s.time *= 1.0 + 0.01 * noise(i);
    }
    let best = select_formula(&samples, Term::family(true, true), 3).unwrap().best;
    assert_eq!(terms_of(&best), [Term::One, Term::P, Term::NLogPOverP], "{best}");
    for (term, want) in [(Term::One, 1000.0), (Term::P, 20.0), (Term::NLogPOverP, 50.0)] {
        let t = best.terms.iter().find(|t| t.term == term).unwrap();
        assert!(t.std_error > 0.0, "noise gives the coefficients an error");
        assert!((t.coefficient - want).abs() < 4.0 * t.std_error, "{term}: {best}");
    }
    assert!(best.r_squared > 0.999 && best.max_relative_error < 0.02, "{best:?}");
    // Predict a run four times larger in p and n than any measured.
    let at = Point { p: 256.0, n: 16_384.0, g: 0.0 };
    let far = best.predict(at);
    let exact = truth(at.p, at.n);
    assert!((far.time - exact).abs() < 0.03 * exact, "{far:?} vs {exact}");
    assert!(far.std_error > 0.0 && (far.time - exact).abs() < 5.0 * far.std_error, "{far:?} vs {exact}");
}

#[test]
fn a_formula_in_p_alone_and_one_in_n_alone() {
    let samples: Vec<Sample> = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
        .iter()
        .map(|&p: &f64| Sample { at: Point { p, n: 0.0, g: 0.0 }, time: 10.0 + 4.0 * p * p.log2() })
        .collect();
    let best = select_formula(&samples, Term::family(true, false), 3).unwrap().best;
    assert_eq!(terms_of(&best), [Term::One, Term::PLogP], "{best}");
    assert!((best.coefficient(Term::PLogP) - 4.0).abs() < 1e-9);

    // Latency + size/bandwidth: the classic α + β·n.
    let samples: Vec<Sample> = [1.0, 1024.0, 65_536.0, 1_048_576.0]
        .iter()
        .map(|&n| Sample { at: Point { p: 0.0, n, g: 0.0 }, time: 1.5e6 + 125.0 * n })
        .collect();
    let best = select_formula(&samples, Term::family(false, true), 2).unwrap().best;
    assert_eq!(terms_of(&best), [Term::One, Term::N]);
    assert!(
        (best.coefficient(Term::One) - 1.5e6).abs() < 1e-3
            && (best.coefficient(Term::N) - 125.0).abs() < 1e-9
    );
    assert!(best.to_string().starts_with("(1.5000e6 ± "), "{best}");
}

#[test]
fn data_that_cannot_be_fitted_says_why() {
    let one = [Sample { at: Point { p: 4.0, n: 8.0, g: 0.0 }, time: 1.0 }];
    assert_eq!(
        fit_terms(&one, &[Term::One, Term::N]).unwrap_err(),
        FitError::TooFewSamples { samples: 1, terms: 2 }
    );
    // One p: n and n/p are the same column up to a factor.
    let samples = grid(&[4.0], &[1.0, 2.0, 3.0], |_, n| n);
    let err = fit_terms(&samples, &[Term::N, Term::NOverP]).unwrap_err();
    assert!(err.to_string().contains("`n`, `n/p` cannot be told apart"), "{err}");
    let samples = grid(&[0.0, 2.0], &[1.0], |p, _| p);
    let err = fit_terms(&samples, &[Term::LogP]).unwrap_err();
    assert!(matches!(err, FitError::Undefined { term: Term::LogP, .. }), "{err}");
    let mut samples = grid(&[1.0, 2.0], &[1.0], |p, _| p);
    samples[1].time = f64::NAN;
    assert!(matches!(fit_terms(&samples, &[Term::P]).unwrap_err(), FitError::BadTime { .. }));
    assert!(select_formula(&samples[..1], Term::family(true, false), 3).is_err());
}

#[test]
fn the_optimal_grain_of_a_pipeline_is_found() {
    // n items through p processors in blocks of g: (p − 1 + n/g)(α + β·g).
    let (p, n, alpha, beta) = (8.0, 1024.0, 50.0, 2.0);
    let samples: Vec<Sample> = (0..9)
        .map(|k| {
            let g = f64::from(1 << k);
            Sample { at: Point { p, n, g }, time: (p - 1.0 + n / g) * (alpha + beta * g) }
        })
        .collect();
    let grain = optimal_grain(&samples).unwrap();
    let want = (n * alpha / ((p - 1.0) * beta)).sqrt();
    let got = grain.optimal_grain.unwrap();
    assert!((got - want).abs() < 1e-6 * want, "{got} vs {want}");
    let best_measured = samples.iter().map(|s| s.time).fold(f64::INFINITY, f64::min);
    assert!(grain.optimal_time.unwrap() <= best_measured, "{grain:?}");
    // Time that only falls with the grain: no interior optimum.
    let falling: Vec<Sample> =
        samples.iter().map(|s| Sample { at: s.at, time: 100.0 + 1000.0 / s.at.g }).collect();
    assert_eq!(optimal_grain(&falling).unwrap().optimal_grain, None);
}

#[test]
fn points_are_read_with_sizes_and_refused_with_the_reason() {
    assert_eq!(Point::parse("p=256, n=1M").unwrap(), Point { p: 256.0, n: 1_048_576.0, g: 0.0 });
    assert_eq!(Point::parse("g=64K,p=8").unwrap(), Point { p: 8.0, n: 0.0, g: 65_536.0 });
    assert!((Point::parse("n=1.5e6").unwrap().n - 1.5e6).abs() < 1e-9);
    assert!(matches!(Point::parse("p256"), Err(PointParseError::NoEquals { .. })));
    assert!(matches!(Point::parse("q=3"), Err(PointParseError::UnknownName { name, .. }) if name == "q"));
    assert!(
        matches!(Point::parse("n=lots"), Err(PointParseError::BadValue { value, .. }) if value == "lots")
    );
    assert!(matches!(Point::parse("n=inf"), Err(PointParseError::BadValue { .. })));
}

/// A ring allreduce: 2(p − 1) steps of α + β·n/p.
fn ring_allreduce(alpha: f64, beta: f64) -> impl Fn(f64, f64) -> f64 {
    move |p, n| 2.0 * (p - 1.0) * (alpha + beta * n / p)
}

#[test]
fn a_ring_allreduce_is_found_exactly_from_small_rings_and_extrapolates() {
    let truth = ring_allreduce(1.72e6, 1000.0);
    let samples = grid(&[2.0, 4.0, 8.0, 16.0], &[4096.0, 16_384.0, 65_536.0], &truth);
    let best = select_formula(&samples, Term::family(true, true), 3).unwrap().best;
    assert_eq!(terms_of(&best), [Term::PMinus1, Term::NPMinus1OverP], "{best}");
    assert!((best.coefficient(Term::PMinus1) - 2.0 * 1.72e6).abs() < 1e-6 * 1.72e6, "{best}");
    assert!((best.coefficient(Term::NPMinus1OverP) - 2000.0).abs() < 1e-9 * 2000.0, "{best}");
    for p in [32.0, 64.0, 1024.0] {
        let at = Point { p, n: 65_536.0, g: 0.0 };
        let exact = truth(p, at.n);
        assert!((best.predict(at).time - exact).abs() < 1e-9 * exact, "p = {p}");
    }
}

/// The uniform noise of a seeded stream, in [−1, 1).
fn seeded_noise(seed: u64) -> impl FnMut() -> f64 {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    move || rng.random_range(-1.0..1.0)
}

/// Where the property extrapolates a ring allreduce fitted on p ≤ 16: p = 32 and 64.
const FAR_POINTS: [(f64, f64); 3] = [(32.0, 1024.0), (64.0, 1024.0), (64.0, 524_288.0)];

/// A ring allreduce measured at p = 2 … 16 and n = 1 KiB … 512 KiB with uniform relative noise of
/// up to `noise_fraction` drawn from `seed`, the formula chosen among up to three terms, and the
/// largest relative error of its predictions at [`FAR_POINTS`].
fn noisy_ring_allreduce_extrapolated(seed: u64, noise_fraction: f64, alpha_over_beta: f64) -> (Fit, f64) {
    let beta = 1000.0;
    let truth = ring_allreduce(alpha_over_beta * beta, beta);
    let mut draw = seeded_noise(seed);
    let mut samples = grid(&[2.0, 4.0, 8.0, 16.0], &[1024.0, 8192.0, 65_536.0, 524_288.0], &truth);
    for s in &mut samples {
        s.time *= 1.0 + noise_fraction * draw();
    }
    let best = select_formula(&samples, Term::family(true, true), 3).unwrap().best;
    let worst = FAR_POINTS
        .iter()
        .map(|&(p, n)| {
            let exact = truth(p, n);
            (best.predict(Point { p, n, g: 0.0 }).time - exact).abs() / exact
        })
        .fold(0.0, f64::max);
    (best, worst)
}

/// The extrapolation error the property allows: twice the largest noise.
const FAR_ERROR_BOUND: f64 = 0.04;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// With a library of fifteen terms and formulas of up to three (the command's default), noisy
    /// measurements of a two-term law (up to 2 % noise, any ratio of latency to bandwidth cost) are
    /// not overfitted: the formula chosen on p ≤ 16 predicts p = 32 and 64 within 4 % (twice the
    /// largest noise) of the law. (Which terms it takes may differ from the law's where the noise
    /// lets another shape follow the points as closely, e.g. `n·log p/p + n·log p` for
    /// `n·(p − 1)/p`.) Each term of the law is above the noise somewhere in the measured points:
    /// latency of 1,000 to 100,000 bytes' worth.
    #[test]
    fn noisy_collective_times_are_not_overfitted(
        seed in 0_u64..1_000_000,
        noise_fraction in 0.001_f64..0.02,
        alpha_over_beta in 1000.0_f64..100_000.0,
    ) {
        let (best, worst) = noisy_ring_allreduce_extrapolated(seed, noise_fraction, alpha_over_beta);
        proptest::prop_assert!(worst < FAR_ERROR_BOUND, "{:.2} % off with {best}", worst * 100.0);
    }
}

/// Draws of the property (seed, noise fraction, α/β) on which a three-term formula has a smaller
/// criterion than the law: the law plus `n·p`, `n·(p − 1)` or `p·log p` at 3 to 4.7 standard
/// errors and 2 to 8 below the law, or `n·log p/p + n·log p` in place of `n·(p − 1)/p` at the
/// largest noise. Each of those formulas misses p = 64 by 4.2 to 8 %.
const DRAWS_WHERE_A_THIRD_TERM_FOLLOWS_THE_NOISE: [(u64, f64, f64); 7] = [
    (238_709, 0.0134, 7846.0),
    (69_659, 0.014_984_434_193_987_773, 1000.0),
    (92_705, 0.016_879_189_552_229_605, 1_731.448_846_408_963_2),
    (937_622, 0.017_770_922_139_507_473, 19_704.229_724_264_555),
    (169_430, 0.019_274_712_917_062_377, 6_629.284_868_565_908),
    (711_403, 0.017_855_715_517_021_12, 6_801.836_154_919_722),
    (306_540, 0.016_049_610_432_653_984, 60_360.125_374_688_47),
];

/// A third term has to beat every two-term formula by [`select::EXTRA_TERM_EVIDENCE`]: on these
/// draws the law's two terms are chosen and extrapolate within the property's bound.
#[test]
fn a_third_term_that_follows_the_noise_does_not_buy_its_way_in() {
    for (seed, noise_fraction, alpha_over_beta) in DRAWS_WHERE_A_THIRD_TERM_FOLLOWS_THE_NOISE {
        let (best, worst) = noisy_ring_allreduce_extrapolated(seed, noise_fraction, alpha_over_beta);
        assert_eq!(terms_of(&best), [Term::PMinus1, Term::NPMinus1OverP], "seed {seed}: {best}");
        assert!(
            worst < FAR_ERROR_BOUND,
            "seed {seed}, noise {noise_fraction}, α/β {alpha_over_beta}: {:.2} % off with {best}",
            worst * 100.0
        );
    }
}

/// The formula the extended BIC alone (without the small-sample correction) would choose.
fn chosen_without_correction(samples: &[Sample], family: &[Term], max_terms: usize) -> Fit {
    use super::select::{ln_binomial, subsets};
    let mut best: Option<Fit> = None;
    for terms in subsets(family, max_terms) {
        let Ok(mut fit) = fit_terms(samples, &terms) else { continue };
        if samples.len() <= terms.len() || !fit.terms.iter().all(|t| t.coefficient > 3.0 * t.std_error) {
            continue;
        }
        fit.criterion = fit.bic + 2.0 * ln_binomial(family.len(), fit.terms.len());
        if best.as_ref().is_none_or(|b| fit.criterion < b.criterion - 1e-6) {
            best = Some(fit);
        }
    }
    best.unwrap()
}

#[test]
fn few_points_do_not_buy_a_formula_that_passes_through_them() {
    // A latency and a per-step cost, 2 % noise, six process counts up to 16.
    let truth = |p: f64| 50.0 + 10.0 * (p - 1.0);
    let family = Term::family(true, false);
    let measure = |seed: u64| -> Vec<Sample> {
        let mut draw = seeded_noise(seed);
        [2.0, 4.0, 6.0, 8.0, 12.0, 16.0]
            .iter()
            .map(|&p| Sample { at: Point { p, n: 0.0, g: 0.0 }, time: truth(p) * (1.0 + 0.02 * draw()) })
            .collect()
    };
    let at = Point { p: 64.0, n: 0.0, g: 0.0 };
    let error = |fit: &Fit| (fit.predict(at).time - truth(64.0)).abs() / truth(64.0);
    let samples = measure(29);
    // Without the correction four terms follow the noise of six points and miss p = 64 by 14 %.
    let plain = chosen_without_correction(&samples, family, 4);
    assert_eq!(plain.terms.len(), 4, "{plain}");
    assert!(error(&plain) > 0.1, "{plain}: {:.1} %", error(&plain) * 100.0);
    // It predicts a point left out far worse than it fits its points, and the report says so.
    let left_out = plain.leave_one_out_error.unwrap();
    assert!(left_out > 3.0 * (plain.rss / plain.samples as f64).sqrt(), "{plain:?}");
    // With it the law's two terms win and predict p = 64 within 1 %.
    let choice = select_formula(&samples, family, 4).unwrap();
    assert_eq!(terms_of(&choice.best), [Term::One, Term::P], "{}", choice.best);
    assert!(error(&choice.best) < 0.01, "{}: {:.2} %", choice.best, error(&choice.best) * 100.0);
    assert!(choice.best.criterion < plain.criterion + small_sample_correction(6, 4));
    assert!(choice.warnings.is_empty(), "{:?}", choice.warnings);
    // Where the noise still lets three terms win on six points, the choice says it stands on two
    // points per term.
    let choice = select_formula(&measure(46), family, 4).unwrap();
    assert_eq!(choice.best.terms.len(), 3, "{}", choice.best);
    assert!(
        choice.warnings.contains(&FitWarning::FewSamplesPerTerm { samples: 6, terms: 3 }),
        "{:?}",
        choice.warnings
    );
    assert!(
        choice.warnings[0].to_string().starts_with("6 measured points for 3 terms"),
        "{:?}",
        choice.warnings
    );
    // A formula needs two spare points: none of four terms on five, an infinite correction.
    assert!(small_sample_correction(5, 4).is_infinite());
    assert!((small_sample_correction(12, 2) - 12.0 / 9.0).abs() < 1e-12);
}

#[test]
fn a_formula_that_explains_little_says_why() {
    // Three points that no one term follows: only one-term formulas can be judged on them, and
    // the best of those is the mean.
    let samples: Vec<Sample> = [(1.0, 10.0), (2.0, 12.0), (3.0, 10.0)]
        .iter()
        .map(|&(n, time)| Sample { at: Point { p: 0.0, n, g: 0.0 }, time })
        .collect();
    let choice = select_formula(&samples, Term::family(false, true), 3).unwrap();
    assert_eq!(terms_of(&choice.best), [Term::One], "{}", choice.best);
    let said = choice.warnings.iter().find_map(|w| match w {
        FitWarning::ExplainsLittle { samples, most_terms, .. } => Some((*samples, *most_terms)),
        _ => None,
    });
    assert_eq!(said, Some((3, 1)), "{:?}", choice.warnings);
    let text = choice.warnings.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
    assert!(text.contains("with 3 measured points only formulas of up to 1 term(s)"), "{text}");
}
