//! Pairings and the game list: round robin or gauntlet, rounds, games per pairing, colours
//! alternating from game to game, and with `-repeat` each opening played twice with the
//! colours reversed, the two games marked as a pair.

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Position in the schedule, 0-based (also the game number shown and saved).
    pub index: usize,
    /// Which pairing (index into `pairs`).
    pub pair: usize,
    /// Engine that plays black.
    pub black: usize,
    /// Engine that plays white.
    pub white: usize,
    /// Opening index (None when there are no openings: every game starts from the empty board).
    pub opening: Option<usize>,
    /// With `-repeat`, the index of the other game of this one's pair (the same start, the
    /// colours reversed); None without it, and for the odd last game of a pairing.
    pub mate: Option<usize>,
}

/// The pairings of `n` engines: the first engine against each other one (gauntlet), or every
/// pair once (round robin), in a fixed order.
pub fn pairs(n: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..n).map(|e| (0, e)).collect()
    } else {
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect()
    }
}

/// Every game: for each round, each pairing plays `games` games. Game g of a pairing gives the
/// pairing's first engine black when g is even. Openings are dealt in order (wrapping); with
/// `repeat` games 2k and 2k+1 of a pairing share one opening, so each opening is played once
/// with each colour assignment, and each is the other's `mate` (when both exist).
pub fn jobs(
    pairs: &[(usize, usize)],
    games: usize,
    rounds: usize,
    n_openings: usize,
    repeat: bool,
) -> Vec<Job> {
    let mut out = Vec::new();
    let mut next_opening = 0usize;
    for _ in 0..rounds {
        for (pi, &(a, b)) in pairs.iter().enumerate() {
            let mut current = None;
            for g in 0..games {
                if n_openings > 0 && (!repeat || g % 2 == 0) {
                    current = Some(next_opening % n_openings);
                    next_opening += 1;
                }
                let (black, white) = if g % 2 == 0 { (a, b) } else { (b, a) };
                let index = out.len();
                let mate = match (repeat, g % 2) {
                    (true, 0) if g + 1 < games => Some(index + 1),
                    (true, 1) => Some(index - 1),
                    _ => None,
                };
                out.push(Job {
                    index,
                    pair: pi,
                    black,
                    white,
                    opening: current,
                    mate,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings() {
        assert_eq!(pairs(2, false), vec![(0, 1)]);
        assert_eq!(pairs(2, true), vec![(0, 1)]);
        assert_eq!(pairs(4, true), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(
            pairs(4, false),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
    }

    #[test]
    fn repeat_plays_each_opening_with_both_colours() {
        let j = jobs(&pairs(2, false), 6, 1, 10, true);
        assert_eq!(j.len(), 6);
        let openings: Vec<_> = j.iter().map(|j| j.opening.unwrap()).collect();
        assert_eq!(openings, vec![0, 0, 1, 1, 2, 2]);
        let colours: Vec<_> = j.iter().map(|j| (j.black, j.white)).collect();
        assert_eq!(
            colours,
            vec![(0, 1), (1, 0), (0, 1), (1, 0), (0, 1), (1, 0)]
        );
        assert!(j.iter().enumerate().all(|(i, j)| j.index == i));
        let mates: Vec<_> = j.iter().map(|j| j.mate.unwrap()).collect();
        assert_eq!(mates, vec![1, 0, 3, 2, 5, 4]);
    }

    #[test]
    fn pairs_stay_within_a_pairing_and_an_odd_last_game_has_no_mate() {
        // Three games a pairing: games 0 and 1 pair up, game 2 stands alone, and the next
        // pairing's first game (index 3) pairs with index 4, not with 2.
        let j = jobs(&pairs(3, false), 3, 1, 0, true);
        let mates: Vec<_> = j.iter().map(|j| j.mate).collect();
        assert_eq!(
            mates,
            vec![
                Some(1),
                Some(0),
                None,
                Some(4),
                Some(3),
                None,
                Some(7),
                Some(6),
                None
            ]
        );
        assert!(j.iter().all(|g| g.mate.is_none_or(|m| j[m].pair == g.pair
            && j[m].black == g.white
            && j[m].opening == g.opening)));
        assert!(jobs(&pairs(2, false), 4, 1, 3, false)
            .iter()
            .all(|j| j.mate.is_none()));
    }

    #[test]
    fn without_repeat_every_game_takes_a_new_opening_and_openings_wrap() {
        let j = jobs(&pairs(3, false), 2, 2, 4, false);
        assert_eq!(j.len(), 12);
        let openings: Vec<_> = j.iter().map(|j| j.opening.unwrap()).collect();
        assert_eq!(openings, vec![0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
        assert_eq!((j[2].pair, j[2].black, j[2].white), (1, 0, 2));
        assert_eq!((j[3].black, j[3].white), (2, 0));
        assert!(jobs(&pairs(2, false), 3, 1, 0, true)
            .iter()
            .all(|j| j.opening.is_none()));
    }
}
