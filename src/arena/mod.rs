//! gorin-arena: plays matches between Piskvork brains (ours or anyone's), referees them with
//! the board's rules, and reports results, Elo and SPRT.

/// Entry point of the `gorin-arena` binary.
pub fn main(_args: &[String]) -> anyhow::Result<i32> {
    anyhow::bail!("the arena is not written yet")
}
