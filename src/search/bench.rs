//! `pbrain-gorin bench`: searches fixed positions to a fixed depth and prints the node count
//! (a signature of the search, identical on every run) and the speed.

/// Entry point of `pbrain-gorin bench`.
pub fn main(_args: &[String]) -> anyhow::Result<()> {
    for line in crate::board::bench::report(1000) {
        println!("{line}");
    }
    Ok(())
}
