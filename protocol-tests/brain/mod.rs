//! The brain's protocol tests: every command (`commands`), every edge case of protocol.md §12
//! numbered as there (`edge_cases`), Gomocup's acceptance positions (`acceptance`), and the
//! random-input robustness run (`robustness`).

mod acceptance;
mod commands;
mod edge_cases;
pub mod harness;
mod robustness;
