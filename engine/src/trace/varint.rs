//! LEB128 variable-length integers and zigzag signed encoding for the compact trace form, and a
//! cursor that decodes them from a byte slice with the position of any failure.

/// Append `v` as unsigned LEB128 (7 bits per byte, low bits first, high bit = more follows).
pub(crate) fn put_u64(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Append a signed value: zigzag (0, -1, 1, -2, … → 0, 1, 2, 3, …) then LEB128.
pub(crate) fn put_i64(out: &mut Vec<u8>, v: i64) {
    put_u64(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// Append a length-prefixed UTF-8 string.
pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u64(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Append an optional index: 0 for none, `v + 1` otherwise.
pub(crate) fn put_opt(out: &mut Vec<u8>, v: Option<u32>) {
    put_u64(out, v.map_or(0, |v| u64::from(v) + 1));
}

/// Decodes from a byte slice; errors are `(position, message)`.
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pub(crate) pos: usize,
}

pub(crate) type Decoded<T> = Result<T, (usize, String)>;

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Cursor { data, pos: 0 }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub(crate) fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    #[inline]
    pub(crate) fn byte(&mut self, what: &str) -> Decoded<u8> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or_else(|| (self.pos, format!("expected {what}, found the end of the data")))?;
        self.pos += 1;
        Ok(b)
    }

    /// An unsigned LEB128 number; one- and two-byte numbers (almost all of a trace's) take a short
    /// path that is inlined where it is read.
    #[inline]
    pub(crate) fn u64(&mut self, what: &str) -> Decoded<u64> {
        // Most numbers (kinds, entities, ports, states, small deltas) are one byte.
        if let Some(&b) = self.data.get(self.pos)
            && b < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(b));
        }
        self.u64_long(what)
    }

    /// [`Cursor::u64`] for a number of more than one byte (or none left): two-byte numbers (times
    /// and sizes below 16 Ki) here, longer ones in [`Cursor::u64_longer`].
    #[inline]
    fn u64_long(&mut self, what: &str) -> Decoded<u64> {
        if let Some(&[b0, b1]) = self.data.get(self.pos..self.pos + 2)
            && b1 < 0x80
        {
            self.pos += 2;
            return Ok(u64::from(b0 & 0x7f) | u64::from(b1) << 7);
        }
        self.u64_longer(what)
    }

    /// [`Cursor::u64`] for three bytes or more, without a bounds check per byte when ten bytes
    /// (the longest encoding) are left.
    #[inline(never)]
    fn u64_longer(&mut self, what: &str) -> Decoded<u64> {
        if let Some(window) = self.data.get(self.pos..self.pos + 10) {
            let mut v = 0_u64;
            for (i, b) in window.iter().enumerate() {
                if i == 9 && *b > 1 {
                    break;
                }
                v |= u64::from(b & 0x7f) << (7 * i);
                if b & 0x80 == 0 {
                    self.pos += i + 1;
                    return Ok(v);
                }
            }
            return Err((self.pos, format!("{what} does not fit in 64 bits")));
        }
        self.u64_near_the_end(what)
    }

    /// [`Cursor::u64`] within the last ten bytes, checking each one.
    fn u64_near_the_end(&mut self, what: &str) -> Decoded<u64> {
        let start = self.pos;
        let mut v = 0_u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(what)?;
            if shift == 63 && b > 1 {
                return Err((start, format!("{what} does not fit in 64 bits")));
            }
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err((start, format!("{what} does not fit in 64 bits")))
    }

    #[inline]
    pub(crate) fn i64(&mut self, what: &str) -> Decoded<i64> {
        let z = self.u64(what)?;
        Ok((z >> 1) as i64 ^ -((z & 1) as i64))
    }

    /// A number that must fit type `T` (a `u32` entity, a `u16` port …).
    #[inline]
    pub(crate) fn small<T: TryFrom<u64>>(&mut self, what: &str) -> Decoded<T> {
        let start = self.pos;
        let v = self.u64(what)?;
        T::try_from(v).map_err(|_| (start, format!("{what} {v} is out of range")))
    }

    pub(crate) fn opt(&mut self, what: &str) -> Decoded<Option<u32>> {
        let start = self.pos;
        match self.u64(what)? {
            0 => Ok(None),
            v => u32::try_from(v - 1)
                .map(Some)
                .map_err(|_| (start, format!("{what} {} is out of range", v - 1))),
        }
    }

    /// `len` bytes from `start`, which an earlier read returned (so they exist).
    pub(crate) fn slice(&self, start: usize, len: usize) -> &'a [u8] {
        self.data.get(start..start + len).unwrap_or_default()
    }

    #[inline]
    pub(crate) fn bytes(&mut self, n: usize, what: &str) -> Decoded<&'a [u8]> {
        if self.remaining() < n {
            return Err((self.pos, format!("expected {n} bytes of {what}, found {}", self.remaining())));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A length-prefixed string's bytes (not yet checked to be UTF-8) and where they start.
    #[inline]
    pub(crate) fn str_bytes(&mut self, what: &str) -> Decoded<(usize, &'a [u8])> {
        let len = self.u64(what)?;
        let start = self.pos;
        let n = usize::try_from(len).map_err(|_| (start, format!("{what} is too long")))?;
        Ok((start, self.bytes(n, what)?))
    }

    pub(crate) fn str(&mut self, what: &str) -> Decoded<String> {
        let (start, bytes) = self.str_bytes(what)?;
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|_| (start, format!("{what} is not valid UTF-8")))
    }

    pub(crate) fn strs(&mut self, what: &str) -> Decoded<Vec<String>> {
        let n = self.u64(what)?;
        if n > self.remaining() as u64 {
            return Err((self.pos, format!("{what}: {n} names cannot fit in the data left")));
        }
        (0..n).map(|_| self.str(what)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_encodings() {
        let mut out = Vec::new();
        put_u64(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
        out.clear();
        put_i64(&mut out, -1);
        put_i64(&mut out, 1);
        put_i64(&mut out, -64);
        assert_eq!(out, [1, 2, 127]);
        out.clear();
        put_u64(&mut out, u64::MAX);
        assert_eq!(out.len(), 10);
    }

    #[test]
    fn overlong_and_truncated_input_is_an_error() {
        let mut c = Cursor::new(&[0xff; 11]);
        assert!(c.u64("n").is_err());
        let mut c = Cursor::new(&[0x80]);
        assert_eq!(c.u64("n").unwrap_err().0, 1);
    }

    proptest! {
        #[test]
        fn round_trip(u in any::<u64>(), i in any::<i64>(), s in ".*") {
            let mut out = Vec::new();
            put_u64(&mut out, u);
            put_i64(&mut out, i);
            put_str(&mut out, &s);
            let mut c = Cursor::new(&out);
            prop_assert_eq!(c.u64("u").unwrap(), u);
            prop_assert_eq!(c.i64("i").unwrap(), i);
            prop_assert_eq!(c.str("s").unwrap(), s);
            prop_assert!(c.is_empty());
            // The same number with room after it (decoded without per-byte checks).
            out.clear();
            put_u64(&mut out, u);
            out.extend_from_slice(&[0xff; 10]);
            let mut c = Cursor::new(&out);
            prop_assert_eq!(c.u64("u").unwrap(), u);
            prop_assert_eq!(c.remaining(), 10);
        }

        /// Over-long encodings fail at their first byte whether or not ten bytes follow.
        #[test]
        fn overlong_numbers_fail_the_same_near_the_end_and_before_it(tail in 0usize..12) {
            let mut out = vec![0x80_u8; 9];
            out.push(0x02);
            out.extend(std::iter::repeat_n(0_u8, tail));
            let mut c = Cursor::new(&out);
            prop_assert_eq!(c.u64("n").map_err(|(at, _)| at), Err(0));
        }
    }
}
