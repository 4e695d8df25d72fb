//! The rule sets and their protocol codes (`INFO rule`, see shared/protocol.md §10).
//! Code 2 is "continuous game" in Piskvork but "renju" in Yixin-Board; Gorin reads a bare 2 as
//! renju (a tournament never sends continuous games, a Yixin-Board user means renju).

use std::fmt;
use std::str::FromStr;

/// What wins and what is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins (code 0).
    #[default]
    Freestyle,
    /// Exactly five wins, for both colours; an overline wins for nobody (code 1).
    Standard,
    /// RIF renju: black wins only with exactly five; black's overline, double-four and
    /// double-three are forbidden; white wins with five or more (code 4, and 2 from Yixin).
    Renju,
    /// Caro: a five blocked at both ends by opponent stones does not win; six or more wins
    /// (code 8).
    Caro,
    /// Caro with exactly five: only an unblocked exact five wins (code 9).
    CaroExact,
}

/// An `INFO rule` value or rule name Gorin cannot play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    UnknownCode(i64),
    UnknownName(String),
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownCode(c) => write!(
                f,
                "unsupported rule {c} (supported: 0 freestyle, 1 standard, 4 or 2 renju, 8 caro, 9 caro exact five)"
            ),
            RuleError::UnknownName(n) => write!(
                f,
                "unknown rule '{n}' (use freestyle, standard, renju, caro or caro5)"
            ),
        }
    }
}

impl std::error::Error for RuleError {}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Decode an `INFO rule` bitmask: 4 means renju whatever else is set; a bare 2 is renju
    /// (Yixin-Board); otherwise 8 is caro, 1 is exactly five, and the continuous bit 2 is
    /// ignored. Rapfi's swap variants 5 and 6 mean freestyle with an opening rule that the
    /// manager runs, so they decode as freestyle.
    pub fn from_code(code: i64) -> Result<Rule, RuleError> {
        match code {
            0 | 2 | 4 | 5 | 6 => {}
            _ if !(0..=15).contains(&code) => return Err(RuleError::UnknownCode(code)),
            _ => {}
        }
        Ok(match code {
            2 => Rule::Renju,
            5 | 6 => Rule::Freestyle,
            c if c & 4 != 0 => Rule::Renju,
            c if c & 8 != 0 && c & 1 != 0 => Rule::CaroExact,
            c if c & 8 != 0 => Rule::Caro,
            c if c & 1 != 0 => Rule::Standard,
            _ => Rule::Freestyle,
        })
    }

    /// The code a manager sends for this rule.
    pub fn code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro5",
        }
    }

    /// Whether black's forbidden moves exist under this rule.
    pub fn has_forbidden(self) -> bool {
        self == Rule::Renju
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = RuleError;

    /// Accepts a name (`freestyle`, `gomoku`, `standard`, `exact`, `renju`, `caro`, `caro5`) or a
    /// protocol code.
    fn from_str(s: &str) -> Result<Rule, RuleError> {
        let t = s.trim().to_ascii_lowercase();
        if let Ok(code) = t.parse::<i64>() {
            return Rule::from_code(code);
        }
        match t.as_str() {
            "freestyle" | "gomoku" | "free" => Ok(Rule::Freestyle),
            "standard" | "exact" | "exact5" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            "caro" => Ok(Rule::Caro),
            "caro5" | "caro-exact" | "caroexact" => Ok(Rule::CaroExact),
            _ => Err(RuleError::UnknownName(s.trim().to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_protocol_codes() {
        assert_eq!(Rule::from_code(0), Ok(Rule::Freestyle));
        assert_eq!(Rule::from_code(1), Ok(Rule::Standard));
        assert_eq!(Rule::from_code(2), Ok(Rule::Renju));
        assert_eq!(Rule::from_code(3), Ok(Rule::Standard));
        assert_eq!(Rule::from_code(4), Ok(Rule::Renju));
        assert_eq!(Rule::from_code(8), Ok(Rule::Caro));
        assert_eq!(Rule::from_code(9), Ok(Rule::CaroExact));
        assert_eq!(Rule::from_code(16), Err(RuleError::UnknownCode(16)));
        assert_eq!(Rule::from_code(-1), Err(RuleError::UnknownCode(-1)));
        for r in Rule::ALL {
            assert_eq!(Rule::from_code(r.code() as i64), Ok(r));
            assert_eq!(r.name().parse::<Rule>(), Ok(r));
        }
        assert!("chess".parse::<Rule>().is_err());
    }
}
