//! Terminal-play tests: drive `pbrain-gorin play` through pipes as a script would.
