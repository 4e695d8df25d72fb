//! Protocol tests: start the real `pbrain-gorin` binary and talk to it over pipes, line by line
//! with timeouts, as a manager does.

mod brain;
