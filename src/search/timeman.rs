//! Time management: turns the protocol's turn limit, match limit and remaining time into a soft
//! limit (start no iteration after it) and a hard limit (abort the search), keeping a reserve for
//! process and manager overhead.

use super::Limits;
use std::time::Duration;

/// Turn limit when the caller gives none and sets no depth or node limit either.
pub const DEFAULT_TURN_MS: u64 = 5000;
/// `time_left` at or above this means "no match clock" (managers send INT32_MAX).
const UNLIMITED_LEFT: i64 = 1_000_000_000;

/// The time one search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Move at once (`timeout_turn 0`, or no time left).
    pub move_now: bool,
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this.
    pub hard: Option<Duration>,
    /// A match clock binds (its share of a move is below the turn limit): time a move saves
    /// goes to later moves, so the search may stop once its best move is settled. Otherwise the
    /// turn's time is used or lost.
    pub save_time: bool,
}

/// Reserve kept back from a per-move limit: reading, writing and scheduling noise. (A
/// thirty-second of the turn instead of a sixteenth, with the search stopping later, scored no
/// better against PentaZen at 1 s: see the comment at the search's deadline.)
fn turn_reserve(turn: u64) -> u64 {
    (30 + turn / 16).min(300)
}

/// The most moves a match clock is shared over, and the hard limit as a multiple of the soft
/// one while the clock binds. (Before, 30 and no such cap, with `search_soft` doubling the soft
/// limit, which starved the later moves: in self-play on 20x20 with a 12 s clock and a 2 s
/// turn, a side's moves 20-29 got 41 ms on average and its moves 30-39 9 ms; now 86 and 46 ms,
/// and 629 ms for its first ten moves against 872. These two and the fix together scored
/// 212-172 there over four sets, 55.2 %, standard error 1.8 %; the cap and the fix with 30
/// moves, which spent a third less time in all, 46-50. See the README's "Hundred-and-sixteenth
/// round".) Tried against these in the hundred-and-seventeenth round, one set of 96 games each
/// in the same self-play, where the same build against itself scored 48-48: 14 moves, 39-57;
/// 26 moves, 42-54; 20 moves less one for every six stones on the board, down to 10, 48-48; a
/// cap of two soft limits, 52-44 and 48-48, and of four, 50-46. None kept.
const MAX_MOVES_TO_GO: u64 = 20;
const HARD_PER_SOFT: u64 = 3;

/// Computes the budget of one move; `empties` is the number of empty squares (game length left)
/// and `lag` the recent overrun the machine caused (see `carry_lag`), kept back as well.
pub fn budget(limits: &Limits, empties: usize, lag: Duration) -> Budget {
    let lag = lag.as_millis() as u64;
    if limits.turn_ms == Some(0) {
        return Budget {
            move_now: true,
            soft: Some(Duration::ZERO),
            hard: Some(Duration::ZERO),
            save_time: false,
        };
    }
    let match_limited = limits.match_ms.is_some_and(|m| m > 0)
        || limits
            .time_left_ms
            .is_some_and(|t| t < UNLIMITED_LEFT && limits.match_ms != Some(0));
    let has_other_limit = limits.max_depth.is_some() || limits.max_nodes.is_some();
    let turn = match limits.turn_ms {
        Some(t) => Some(t),
        None if match_limited || !has_other_limit => Some(DEFAULT_TURN_MS),
        None => None,
    };
    let mut hard: Option<u64> = None;
    let mut soft: Option<u64> = None;
    let mut save_time = false;
    if let Some(t) = turn {
        let reserve = turn_reserve(t) + lag;
        let h = if t > 2 * reserve { t - reserve } else { t / 2 };
        hard = Some(h);
        soft = Some(h * 13 / 20);
    }
    if match_limited {
        let left = limits
            .time_left_ms
            .or(limits.match_ms.map(|m| m as i64))
            .unwrap_or(0)
            .max(0) as u64;
        let reserve = (50 + left / 40).min(1000) + lag;
        let usable = left.saturating_sub(reserve);
        if usable == 0 {
            return Budget {
                move_now: true,
                soft: Some(Duration::ZERO),
                hard: Some(Duration::ZERO),
                save_time: true,
            };
        }
        // Moves still to play by this side, roughly; the clock should last the game.
        let to_go = (empties as u64 / 4).clamp(10, MAX_MOVES_TO_GO);
        let h = usable / 4;
        let s = usable / to_go;
        // Saving matters only while the clock's share of a move is below the turn limit: a
        // clock that outlasts every turn's limit gains nothing from a quick move.
        save_time = hard.is_none_or(|x| s < x);
        hard = Some(hard.map_or(h, |x| x.min(h)));
        if save_time {
            // An iteration begun just before the soft limit may run on to the search's
            // deadline, far past the clock's share of a move.
            hard = hard.map(|x| x.min(s * HARD_PER_SOFT));
        }
        soft = Some(soft.map_or(s, |x| x.min(s)).min(hard.unwrap_or(h)));
    }
    Budget {
        move_now: false,
        soft: soft.map(Duration::from_millis),
        hard: hard.map(Duration::from_millis),
        save_time,
    }
}

/// Share (sixteenths) of the soft limit that the search keeps after long root threat checks.
const SEARCH_SOFT_SHARE: u32 = 9;

/// The soft limit of the search proper, which starts `now` after the root threat checks:
/// those can take half the time when the opponent threatens, and the search then still gets
/// 9/16 of the soft limit after them, never past its `deadline` (all measured from the move's
/// start). (It got 9/16 of the time left before the deadline instead until the
/// hundred-and-sixteenth round, which under a binding match clock doubled the soft limit
/// after quick checks too.) When time is not saved (`Budget::save_time`), unused time is
/// lost: iterations may start until the deadline (an unfinished one still replaces the move
/// when another beats it).
pub fn search_soft(
    soft: Option<Duration>,
    deadline: Option<Duration>,
    now: Duration,
    save_time: bool,
) -> Option<Duration> {
    match (soft, deadline) {
        (Some(_), Some(d)) if !save_time => Some(d),
        (Some(s), Some(d)) => Some(s.max(now + s * SEARCH_SOFT_SHARE / 16).min(d)),
        _ => soft,
    }
}

/// How long after the move's start the final safety check of the chosen move may run: past the
/// soft limit, but not so far that a match clock drains, and a little short of the hard limit
/// (a reply that lands just under it is one scheduling hiccup away from a forfeit).
pub fn check_until(soft: Duration, hard: Duration) -> Duration {
    (soft * 3 / 2).min(hard * 15 / 16)
}

/// The lag the next move keeps back, from the last one's (`prev`) and how far this move's
/// answer came after its hard limit (`over`): a stall (an oversubscribed machine, a swapped-out
/// page) that made one answer late tends to recur for a while, so the reserve grows by the
/// overrun at once and gives it back by halves, move by move.
pub fn carry_lag(prev: Duration, over: Duration) -> Duration {
    over.max(prev / 2).min(Duration::from_secs(60))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget on a machine that has not stalled.
    fn plan(l: &Limits, empties: usize) -> Budget {
        budget(l, empties, Duration::ZERO)
    }

    fn lim(turn: Option<u64>, m: Option<u64>, left: Option<i64>) -> Limits {
        Limits {
            turn_ms: turn,
            match_ms: m,
            time_left_ms: left,
            ..Limits::default()
        }
    }

    #[test]
    fn turn_limit_keeps_a_reserve() {
        let b = plan(&lim(Some(1000), Some(0), Some(2147483647)), 200);
        assert!(!b.move_now);
        let hard = b.hard.unwrap().as_millis();
        assert!((800..1000).contains(&hard), "{hard}");
        assert!(b.soft.unwrap() < b.hard.unwrap());
        let b = plan(&lim(Some(200), None, None), 200);
        assert!(b.hard.unwrap().as_millis() < 200);
        assert!(b.hard.unwrap().as_millis() >= 100);
    }

    #[test]
    fn a_stall_grows_the_reserve_then_fades() {
        let ms = Duration::from_millis;
        let l = lim(Some(1000), Some(0), Some(2147483647));
        let calm = plan(&l, 200).hard.unwrap();
        // The last answer came 160 ms after its hard limit: the next move keeps that back.
        let lag = carry_lag(Duration::ZERO, ms(160));
        assert_eq!(budget(&l, 200, lag).hard.unwrap(), calm - ms(160));
        // On time since: the lag halves with each move.
        let lag = carry_lag(lag, Duration::ZERO);
        assert_eq!(lag, ms(80));
        let lag = carry_lag(lag, ms(30));
        assert_eq!(lag, ms(40));
        assert!(carry_lag(ms(1), Duration::ZERO) < ms(1));
        // A match clock keeps it back too.
        let m = lim(None, Some(180000), Some(6000));
        let (a, b) = (plan(&m, 150), budget(&m, 150, ms(400)));
        assert!(b.hard.unwrap() < a.hard.unwrap(), "{a:?} {b:?}");
        // However large, half the turn is left to think.
        assert_eq!(
            budget(&l, 200, ms(5000)).hard.unwrap(),
            ms(500),
            "a huge lag leaves half the turn"
        );
    }

    #[test]
    fn time_is_saved_only_for_a_match_clock() {
        // A turn limit alone: what a move leaves unused is lost.
        assert!(!plan(&lim(Some(1000), Some(0), Some(2147483647)), 200).save_time);
        assert!(!plan(&lim(Some(1000), None, None), 200).save_time);
        // A running match clock that binds: it goes to later moves.
        assert!(plan(&lim(Some(5000), Some(180000), Some(60000)), 200).save_time);
        assert!(plan(&lim(None, None, Some(60000)), 200).save_time);
        // A clock that outlasts every turn's limit does not.
        assert!(!plan(&lim(Some(1000), Some(100_000_000), Some(100_000_000)), 200).save_time);
    }

    #[test]
    fn zero_means_move_now() {
        assert!(plan(&lim(Some(0), None, None), 100).move_now);
        // No time left on the match clock.
        assert!(plan(&lim(Some(5000), Some(60000), Some(-20)), 100).move_now);
    }

    #[test]
    fn match_clock_governs_when_short() {
        let b = plan(&lim(Some(30000), Some(180000), Some(6000)), 150);
        let hard = b.hard.unwrap().as_millis();
        assert!(hard <= 1500, "{hard}");
        assert!(b.soft.unwrap().as_millis() <= 600);
        // Plenty of match time: the turn limit governs.
        let b = plan(&lim(Some(1000), Some(180000), Some(170000)), 150);
        assert!(b.hard.unwrap().as_millis() < 1000);
    }

    #[test]
    fn a_binding_clock_outlasts_the_opening_moves() {
        // 20x20 under a 12 s clock and a 2 s turn (Gomocup's 180 s and 30 s, scaled down), each
        // move taking its whole hard limit, the worst case: an eighth of the clock is left
        // after ten moves. (With the policy before this one, 8 % was.)
        let mut left = 12_000i64;
        for n in 0..10 {
            let b = plan(&lim(Some(2000), Some(12_000), Some(left)), 400 - 2 * n);
            assert!(b.save_time);
            assert!(b.hard.unwrap() <= b.soft.unwrap() * HARD_PER_SOFT as u32);
            left -= b.hard.unwrap().as_millis() as i64;
        }
        assert!(left > 12_000 / 8, "{left} ms left");
        // After quick root checks the search starts no iteration past the soft limit, however
        // far its deadline.
        let ms = Duration::from_millis;
        assert_eq!(
            search_soft(Some(ms(600)), Some(ms(1500)), ms(20), true),
            Some(ms(600))
        );
    }

    #[test]
    fn depth_or_node_limits_alone_are_untimed() {
        let l = Limits {
            max_depth: Some(4),
            ..Limits::default()
        };
        assert_eq!(plan(&l, 200).hard, None);
        let b = plan(&Limits::default(), 200);
        assert_eq!(b.hard.unwrap().as_millis(), (DEFAULT_TURN_MS - 300) as u128);
    }

    #[test]
    fn search_keeps_a_share_after_long_root_checks() {
        let ms = Duration::from_millis;
        // Quick root checks: the soft limit stands.
        assert_eq!(
            search_soft(Some(ms(500)), Some(ms(750)), ms(20), true),
            Some(ms(500))
        );
        // Checks that took 450 of 750 ms: the search may still start iterations for 9/16 of
        // the 500 ms soft limit after them, past that limit but never past its deadline.
        let s = search_soft(Some(ms(500)), Some(ms(750)), ms(450), true).unwrap();
        assert!(s > ms(600) && s < ms(750), "{s:?}");
        assert_eq!(
            search_soft(Some(ms(500)), Some(ms(750)), ms(800), true),
            Some(ms(750))
        );
        // Without time to save, iterations may start until the deadline.
        assert_eq!(
            search_soft(Some(ms(500)), Some(ms(750)), ms(20), false),
            Some(ms(750))
        );
        assert_eq!(search_soft(None, None, ms(20), false), None);
        // Untimed searches stay untimed.
        assert_eq!(search_soft(None, Some(ms(750)), ms(450), true), None);
        assert_eq!(
            search_soft(Some(ms(500)), None, ms(450), true),
            Some(ms(500))
        );
        // The final check: past the soft limit, short of the hard one.
        let b = plan(&lim(Some(1000), Some(0), Some(2147483647)), 200);
        let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
        let end = check_until(soft, hard);
        assert!(end > soft && end < hard, "{soft:?} {end:?} {hard:?}");
        assert!(hard + ms(50) < ms(1000), "{hard:?}");
        // A long match-clock move: the soft limit bounds the check.
        assert_eq!(check_until(ms(2000), ms(15000)), ms(3000));
    }
}
