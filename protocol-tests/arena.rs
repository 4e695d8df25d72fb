//! Arena tests: run `gorin-arena` against small fake brains and against pbrain-gorin, over
//! pipes, and check every adjudication.
