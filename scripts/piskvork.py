"""Talking to a Piskvork brain over its pipes, as a manager does, and the pos notation of the
position lists: shared by the scripts that send positions to brains (agree, forced-wins).
"""
import re
import subprocess
import sys
import time

POS = re.compile(r"([a-z])(\d+)")
MOVE = re.compile(r"(\d+),(\d+)")


def squares(text):
    """Pos-notation squares as (x, y), 0-based, row 1 at the top."""
    return [(ord(m.group(1)) - 97, int(m.group(2)) - 1) for m in POS.finditer(text)]


def square(x, y):
    """The pos-notation name of a 0-based square."""
    return chr(97 + x) + str(y + 1)


class Brain:
    def __init__(self, cmd, stderr=None, env=None):
        """`stderr`: an open file for the brain's diagnostics (default: discarded); `env`: its
        environment (default: ours)."""
        self.cmd = cmd
        self.stderr, self.env = stderr, env
        self.p = self.spawn()

    def spawn(self):
        return subprocess.Popen(
            [self.cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr or subprocess.DEVNULL, env=self.env, text=True, bufsize=1)

    def start(self, size):
        """START on the running brain; a brain that refuses it (ERROR or UNKNOWN) is started
        afresh and asked once more. (Rapfi drops a command that comes while it is still
        finishing its last search, so the START right after its move can read as `ERROR
        Unknown command: 15`.)"""
        for attempt in range(2):
            self.send(f"START {size}")
            while True:
                line = self.read()
                if line == "OK":
                    return
                if line.startswith("ERROR") or line.startswith("UNKNOWN"):
                    break
            if attempt == 0:
                self.p.kill()
                self.p.wait()
                self.p = self.spawn()
        sys.exit(f"{self.cmd} refused START {size}: {line}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self):
        line = self.p.stdout.readline()
        if not line:
            sys.exit("engine exited")
        return line.strip()

    def think(self, size, infos, moves, new_game=True):
        """The brain's move, its last MESSAGE line (None if it sent none) and the seconds it
        took, on a new game holding `moves`. Some brains keep stones across BOARD commands:
        every position starts a new game (START), then gets the INFO lines `infos`. With
        `new_game` false the position goes to the game in progress (no START, no INFO lines),
        so the brain keeps what it learned on its earlier moves, as in a match. All its
        MESSAGE lines stay in `messages` until the next call."""
        if new_game:
            self.start(size)
            for info in infos:
                self.send("INFO " + info)
        self.send("BOARD")
        for k, (x, y) in enumerate(moves):
            # Field 1: the side to move's stones; the last stone is the opponent's.
            self.send(f"{x},{y},{1 if k % 2 == len(moves) % 2 else 2}")
        start = time.time()
        self.send("DONE")
        message = None
        self.messages = []
        while True:
            line = self.read()
            if line.startswith("MESSAGE"):
                message = line
                self.messages.append(line)
            m = MOVE.fullmatch(line)
            if m:
                return (int(m.group(1)), int(m.group(2))), message, time.time() - start

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
