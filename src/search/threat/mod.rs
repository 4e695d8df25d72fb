//! Threat-space search: VCF (continuous fours) and VCT (continuous threats) solvers that prove
//! forced wins under each rule, used at the root, as the alpha-beta quiescence, and by `solve`.

/// Entry point of `pbrain-gorin solve`.
pub fn solve_main(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("the solver is not written yet")
}
