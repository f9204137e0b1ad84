//! [`Number`]: a number of a [`super::Doc`], kept as its text and valued, when asked, exactly as
//! serde_json values the same text.

use std::fmt;

/// A number, kept as its text; valued as serde_json values the same text.
#[derive(Clone, Copy)]
pub struct Number<'v> {
    pub(super) text: &'v str,
}

/// serde_json's three kinds of number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum N {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
}

impl<'v> Number<'v> {
    /// The number's text as it stands in the document.
    pub fn text(self) -> &'v str {
        self.text
    }

    pub(super) fn value(self) -> N {
        let (negative, digits) = match self.text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, self.text),
        };
        // Up to 18 digits fit either way; anything else (longer, a fraction, an exponent) is
        // valued by serde_json itself.
        if digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit()) {
            let n: u64 = digits.bytes().fold(0, |n, d| n * 10 + (d - b'0') as u64);
            return match (negative, n) {
                (false, n) => N::PosInt(n),
                // serde_json reads `-0` as the float -0.0.
                (true, 0) => N::Float(-0.0),
                (true, n) => N::NegInt(-(n as i64)),
            };
        }
        let n: serde_json::Number = serde_json::from_str(self.text).expect("checked when parsed");
        if let Some(u) = n.as_u64() {
            N::PosInt(u)
        } else if let Some(i) = n.as_i64() {
            N::NegInt(i)
        } else {
            N::Float(n.as_f64().expect("a float"))
        }
    }

    pub fn is_u64(self) -> bool {
        matches!(self.value(), N::PosInt(_))
    }

    pub fn is_i64(self) -> bool {
        match self.value() {
            N::PosInt(n) => n <= i64::MAX as u64,
            N::NegInt(_) => true,
            N::Float(_) => false,
        }
    }

    pub fn is_f64(self) -> bool {
        matches!(self.value(), N::Float(_))
    }

    pub fn as_u64(self) -> Option<u64> {
        match self.value() {
            N::PosInt(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_i64(self) -> Option<i64> {
        match self.value() {
            N::PosInt(n) => i64::try_from(n).ok(),
            N::NegInt(n) => Some(n),
            N::Float(_) => None,
        }
    }

    pub fn as_f64(self) -> Option<f64> {
        Some(match self.value() {
            N::PosInt(n) => n as f64,
            N::NegInt(n) => n as f64,
            N::Float(f) => f,
        })
    }

    /// serde_json's `Number` for the same text.
    pub fn to_number(self) -> serde_json::Number {
        match self.value() {
            N::PosInt(n) => n.into(),
            N::NegInt(n) => n.into(),
            N::Float(f) => serde_json::Number::from_f64(f).expect("finite when parsed"),
        }
    }
}

impl fmt::Debug for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_number(), f)
    }
}

/// As `Value`'s `Display` writes the number (`1e2` as `100.0`).
impl fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_number(), f)
    }
}
