"""Reading gorin-arena PSQ records (`-psq DIR`), shared by the scripts that study matches.

A record is the Piskvork header (`Piskvorky WxH, ...`), the moves as `x,y,ms` (1-based, the
opening's stones with 0 ms), then the black and the white engine's names and the result line.
"""
import os
import re

HEADER = re.compile(r"Piskvorky (\d+)x(\d+)")
MOVE = re.compile(r"^(-?\d+),(-?\d+),(\d+)$")
RESULT = re.compile(r"^(1-0|0-1|1/2-1/2)\b")


class Record:
    def __init__(self, width, height, moves, times, black, white, result):
        self.width, self.height = width, height
        # 0-based (x, y), row 0 at the top, and each move's time in ms.
        self.moves, self.times = moves, times
        self.black, self.white, self.result = black, white, result

    def opening(self):
        """How many leading stones are the opening's (recorded with 0 ms)."""
        return next((i for i, t in enumerate(self.times) if t > 0), len(self.times))

    def loser(self):
        """The losing engine's name, or None for a draw."""
        return {"1-0": self.white, "0-1": self.black}.get(self.result)


def names(folder):
    """The record files of a folder (`*.psq`), sorted by name (gorin-arena numbers them in order)."""
    if not os.path.isdir(folder):
        # The scripts take folders (`-psq DIR`); a match's log or a single record is a slip.
        raise SystemExit(f"{folder}: not a folder of PSQ records (gorin-arena -psq DIR)")
    return sorted(name for name in os.listdir(folder) if name.endswith(".psq"))


def read(path):
    """The record at `path`, or None when it has no header, names or result."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l.strip() for l in f.read().splitlines()]
    size = HEADER.match(lines[0]) if lines else None
    if size is None:
        return None
    moves, times, rest = [], [], []
    for l in lines[1:]:
        m = MOVE.match(l)
        if m and not rest:
            moves.append((int(m.group(1)) - 1, int(m.group(2)) - 1))
            times.append(int(m.group(3)))
        elif l:
            rest.append(l)
    result = RESULT.match(rest[2]) if len(rest) >= 3 else None
    if result is None:
        return None
    return Record(int(size.group(1)), int(size.group(2)), moves, times, rest[0], rest[1],
                  result.group(1))
