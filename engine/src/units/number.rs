//! Exact decimal numbers: `1.25`, `1_000`, `2.5e-3`, `.5` read as an integer mantissa and a power of
//! ten, then scaled to a base quantity with integer arithmetic, so `1.1 us` is exactly 1,100,000 ps
//! and a value formatted by [`super::format_in`] reads back to the same integer.

use super::error::UnitError;

/// Longest number accepted (digits, separators, point and exponent): a bound for hostile input.
pub const MAX_NUMBER_CHARS: usize = crate::limits::MAX_NUMBER_CHARS;

/// Most fractional digits [`write_ratio`] writes (more than any unit's expansion needs).
const MAX_FRACTION_DIGITS: usize = 60;

/// A decimal `mantissa × 10^exponent`, with its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    /// The digits as an integer.
    pub mantissa: u128,
    /// Power of ten applied to the mantissa.
    pub exponent: i32,
    /// A leading `-` was written.
    pub negative: bool,
    /// Non-zero digits beyond the 38 a `u128` holds were dropped (the value is then approximate).
    pub truncated: bool,
}

/// Read `[+-]digits[.digits][e[+-]digits]` (with `_` separators in the digits). `whole` is the
/// complete input, quoted in errors.
pub fn read_decimal(text: &str, whole: &str) -> Result<Decimal, UnitError> {
    let bad = || UnitError::BadNumber { text: whole.to_string(), expected: "a number" };
    if text.len() > MAX_NUMBER_CHARS {
        return Err(UnitError::TooLong(whole.chars().take(24).collect()));
    }
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (significand, exponent_text) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int_part, frac_part) = significand.split_once('.').unwrap_or((significand, ""));
    let int_digits: String = int_part.chars().filter(|c| *c != '_').collect();
    let frac_digits: String = frac_part.chars().filter(|c| *c != '_').collect();
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int_digits.is_empty() && frac_digits.is_empty()
        || !all_digits(&int_digits)
        || !all_digits(&frac_digits)
        || int_part.starts_with('_')
    {
        return Err(bad());
    }
    let mut mantissa: u128 = 0;
    let mut exponent: i32 = 0;
    let mut truncated = false;
    for (i, b) in int_digits.bytes().chain(frac_digits.bytes()).enumerate() {
        let digit = u128::from(b - b'0');
        let in_fraction = i >= int_digits.len();
        if let Some(m) = mantissa.checked_mul(10).and_then(|m| m.checked_add(digit)) {
            mantissa = m;
            exponent -= i32::from(in_fraction);
        } else {
            // Beyond 38 digits the rest only matters for rounding: drop it, keep the magnitude.
            exponent += i32::from(!in_fraction);
            truncated |= digit != 0;
        }
    }
    if let Some(exp) = exponent_text {
        let value: i32 = match exp.strip_prefix('+').unwrap_or(exp).parse() {
            Ok(v) if exp.len() <= 5 => v,
            _ => return Err(bad()),
        };
        exponent += value;
    }
    Ok(Decimal { mantissa, exponent, negative, truncated })
}

/// `decimal × num ÷ den`, rounded to the nearest integer (halves away from zero), and whether it
/// was exact (no rounding); `None` when the result does not fit in `u128`. Signs are the caller's
/// business. Common factors are cancelled first, so any exact result that fits is found; digits
/// too fine to matter are rounded away only when the arithmetic would overflow.
pub fn scale(decimal: Decimal, num: u128, den: u128) -> Option<(u128, bool)> {
    let mut mantissa = decimal.mantissa;
    let mut exponent = decimal.exponent;
    if mantissa == 0 {
        return Some((0, true));
    }
    while mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exponent += 1;
    }
    let mut exact = true;
    loop {
        if let Some((value, whole)) = scale_once(mantissa, exponent, num, den) {
            return Some((value, exact && whole));
        }
        if exponent >= 0 {
            return None;
        }
        // Too fine for 128 bits: drop the last digit (rounded) and try again.
        exact &= mantissa.is_multiple_of(10);
        mantissa = (mantissa + 5) / 10;
        exponent += 1;
        if mantissa == 0 {
            return Some((0, false));
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn scale_once(mantissa: u128, exponent: i32, num: u128, den: u128) -> Option<(u128, bool)> {
    let (mut factors, mut bottom) = if exponent >= 0 {
        ([mantissa, num, 10u128.checked_pow(exponent.unsigned_abs())?], den)
    } else {
        // 10^k alone may not fit (k ≥ 39) while the exact result does: cancel its twos and fives
        // against the numerator's factors before building what is left of it.
        let mut twos = exponent.unsigned_abs();
        let mut fives = twos;
        let mut factors = [mantissa, num, 1];
        for factor in &mut factors {
            while twos > 0 && *factor % 2 == 0 {
                (*factor, twos) = (*factor / 2, twos - 1);
            }
            while fives > 0 && *factor % 5 == 0 {
                (*factor, fives) = (*factor / 5, fives - 1);
            }
        }
        let rest = 2u128.checked_pow(twos)?.checked_mul(5u128.checked_pow(fives)?)?;
        (factors, den.checked_mul(rest)?)
    };
    // Cancel every factor against the denominator before multiplying, so exact results never overflow.
    let mut numerator: u128 = 1;
    for factor in &mut factors {
        let g = gcd(*factor, bottom);
        (*factor, bottom) = (*factor / g, bottom / g);
        numerator = numerator.checked_mul(*factor)?;
    }
    let quotient = numerator / bottom;
    let remainder = numerator % bottom;
    let rounded = if remainder >= bottom - remainder { quotient + 1 } else { quotient };
    Some((rounded, remainder == 0))
}

/// `value × den ÷ num` written exactly in decimal, trailing zeros trimmed: `1250000000 × 8 ÷ 1e9` →
/// `10`. Every unit's `num` is a product of twos and fives (at most 2⁶⁰), so the expansion ends
/// within 60 fractional digits; the cut at [`MAX_FRACTION_DIGITS`] only bounds a ratio that would not.
pub fn write_ratio(value: u128, num: u128, den: u128) -> String {
    let numerator = value.saturating_mul(den);
    let whole = numerator / num;
    let mut remainder = numerator % num;
    let mut text = whole.to_string();
    if remainder == 0 {
        return text;
    }
    let mut fraction = String::new();
    while remainder != 0 && fraction.len() < MAX_FRACTION_DIGITS {
        remainder = remainder.saturating_mul(10);
        fraction.push(char::from(b'0' + (remainder / num) as u8));
        remainder %= num;
    }
    text.push('.');
    text.push_str(fraction.trim_end_matches('0'));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        read_decimal(text, text).unwrap()
    }

    #[test]
    fn reads_decimals_exactly() {
        assert_eq!(d("1.25"), Decimal { mantissa: 125, exponent: -2, negative: false, truncated: false });
        assert_eq!(d("1_000"), Decimal { mantissa: 1000, exponent: 0, negative: false, truncated: false });
        assert_eq!(d("-2.5e-3"), Decimal { mantissa: 25, exponent: -4, negative: true, truncated: false });
        assert_eq!(d(".5"), Decimal { mantissa: 5, exponent: -1, negative: false, truncated: false });
        assert_eq!(d("3."), Decimal { mantissa: 3, exponent: 0, negative: false, truncated: false });
        for bad in ["", ".", "1.2.3", "e5", "1e", "_1", "1x", "--1", "1e999999"] {
            assert!(read_decimal(bad, bad).is_err(), "{bad}");
        }
        assert!(matches!(read_decimal(&"9".repeat(80), "x"), Err(UnitError::TooLong(_))));
    }

    #[test]
    fn scales_with_rounding() {
        assert_eq!(scale(d("1.1"), 1_000_000, 1), Some((1_100_000, true)));
        assert_eq!(scale(d("10"), 1_000_000_000, 8), Some((1_250_000_000, true)));
        assert_eq!(scale(d("1.5"), 1024, 1), Some((1536, true)));
        assert_eq!(scale(d("0.5"), 1, 1), Some((1, false)));
        assert_eq!(scale(d("0.49"), 1, 1), Some((0, false)));
        assert_eq!(scale(d("1e-60"), 1, 1), Some((0, false)));
        assert_eq!(scale(d("1e40"), 1, 1), None);
        // 38 significant digits and more: the extra ones are dropped, the magnitude kept.
        let big = d("1234567890123456789012345678901234567890");
        assert_eq!(big.exponent, 1);
        assert_eq!(scale(big, 1, 10), Some((123_456_789_012_345_678_901_234_567_890_123_456_789, true)));
        // Exact results are found even when the digits times the unit would overflow.
        let fine = d("12.172019788064062595367431640625");
        assert_eq!(scale(fine, 1 << 30, 1), Some((13_069_606_729, true)));
        assert_eq!(scale(d("5e-38"), 1, 8), Some((0, false)));
    }

    #[test]
    fn writes_ratios_exactly() {
        assert_eq!(write_ratio(1_250_000_000, 1_000_000_000, 8), "10");
        assert_eq!(write_ratio(1_500_000, 1_000_000, 1), "1.5");
        assert_eq!(write_ratio(1536, 1024, 1), "1.5");
        assert_eq!(write_ratio(1, 1024, 1), "0.0009765625");
        assert_eq!(write_ratio(0, 1000, 1), "0");
    }
}
