//! Terminal play: a person plays Gorin (or a friend) on a board drawn in the terminal, with
//! undo, hints, save/load and puzzles.

/// Entry point of `pbrain-gorin play`.
pub fn main(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("terminal play is not written yet")
}
