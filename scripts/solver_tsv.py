"""Positions from game records sent to `pbrain-gorin solve --tsv` as VCT rows, and its verdicts
read back: shared by the scripts that ask the solver about match positions (loss-report,
missed-wins).
"""
import os
import subprocess
import tempfile


def square(x, y, h):
    """Renju notation (row 1 at the bottom), as the solver's --tsv columns expect."""
    return chr(65 + x) + str(h - y)


def solve(binary, h, rows, ms, nodes=None):
    """rows: [(tag, moves)] -> {tag: verdict}; the side to move follows the stone count. Each
    row is capped at `ms` milliseconds and, when given, `nodes` nodes."""
    fd, path = tempfile.mkstemp(suffix=".tsv")
    with os.fdopen(fd, "w") as f:
        f.write("file\tindex\trule\tside_to_move\ttask\tblack_stones\twhite_stones\n")
        for tag, moves in rows:
            black = ",".join(square(x, y, h) for x, y in moves[0::2])
            white = ",".join(square(x, y, h) for x, y in moves[1::2])
            side = "B" if len(moves) % 2 == 0 else "W"
            f.write(f"{tag}\t0\tfreestyle\t{side}\tVCT\t{black}\t{white}\n")
    args = [binary, "solve", "--tsv", path, "--time", str(ms), "--verbose"]
    if nodes is not None:
        args += ["--nodes", str(nodes)]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    os.unlink(path)
    verdicts = {}
    for line in out.splitlines():
        p = line.split("\t")
        if len(p) >= 5 and p[2] == "VCT":
            verdicts[p[0]] = p[4]
    return verdicts
