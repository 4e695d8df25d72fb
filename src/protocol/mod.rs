//! The Piskvork/Gomocup brain protocol: reads commands from stdin, keeps the game state and
//! INFO settings, and delegates thinking to `search::Engine`. It holds no game logic.

/// Runs the brain on stdin/stdout until END or end of input.
pub fn run_stdio() -> anyhow::Result<()> {
    anyhow::bail!("the protocol loop is not written yet")
}
