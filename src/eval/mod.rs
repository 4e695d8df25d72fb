//! Static evaluation from the board's incremental line patterns: per-square scores for move
//! ordering and a position score for the side to move.
