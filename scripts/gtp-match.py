#!/usr/bin/env python3
"""Plays Go games between two GTP engines (colours alternating) and scores them with a GNU Go
referee (`final_score` under Chinese rules) after two passes; a resignation ends a game too.

    scripts/gtp-match.py --a "qi-engine gtp" --a-setup "qi-movetime 2000" \\
        --b "gnugo --mode gtp --chinese-rules --level 10" --games 20 --size 9 --komi 7

Prints one line per game and the total for A (a jigo counts half); `--sgf DIR` keeps the
game records and `--log FILE` takes A's stderr (qi-engine reports its playouts there).
"""

import argparse
import os
import shlex
import subprocess
import sys
import time


class Engine:
    def __init__(self, cmd, log=None):
        self.p = subprocess.Popen(
            shlex.split(cmd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log if log else subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            r = self.p.stdout.readline()
            if r == "":
                raise RuntimeError(f"engine died on '{line}'")
            if r.strip() == "" and out:
                break
            if r.strip() == "":
                continue
            out.append(r.rstrip("\n"))
        text = "\n".join(out)
        if text.startswith("?"):
            raise RuntimeError(f"'{line}' -> {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.send("quit")
        except Exception:
            pass
        self.p.wait(timeout=10)


def sgf(size, komi, moves, result):
    def coord(v):
        if v.lower() == "pass":
            return ""
        col = "ABCDEFGHJKLMNOPQRST".index(v[0].upper())
        row = int(v[1:])
        return "abcdefghijklmnopqrs"[col] + "abcdefghijklmnopqrs"[size - row]
    body = "".join(f";{c}[{coord(m)}]" for c, m in moves)
    return f"(;GM[1]FF[4]SZ[{size}]KM[{komi}]RU[Chinese]RE[{result}]{body})\n"


def main():
    os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/games"
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--a-setup", default="", help="GTP commands for A, ';' between")
    ap.add_argument("--b", required=True)
    ap.add_argument("--b-setup", default="")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--referee", default="gnugo --mode gtp --chinese-rules")
    ap.add_argument("--max-moves", type=int, default=0)
    ap.add_argument("--sgf", default="")
    ap.add_argument("--log", default="")
    args = ap.parse_args()
    max_moves = args.max_moves or args.size * args.size * 3
    log = open(args.log, "a") if args.log else None
    a = Engine(args.a, log)
    b = Engine(args.b)
    ref = Engine(args.referee)
    for e, setup in ((a, args.a_setup), (b, args.b_setup)):
        for c in filter(None, (s.strip() for s in setup.split(";"))):
            e.send(c)
    wins = 0
    played = 0
    t0 = time.time()
    for g in range(args.first, args.first + args.games):
        a_black = g % 2 == 0
        black, white = (a, b) if a_black else (b, a)
        for e in (a, b, ref):
            e.send(f"boardsize {args.size}")
            e.send(f"komi {args.komi}")
            e.send("clear_board")
        moves = []
        passes = 0
        result = None
        color = "B"
        while len(moves) < max_moves:
            mover, other = (black, white) if color == "B" else (white, black)
            mv = mover.send(f"genmove {color}")
            if mv.lower() == "resign":
                result = ("W" if color == "B" else "B") + "+R"
                break
            other.send(f"play {color} {mv}")
            ref.send(f"play {color} {mv}")
            moves.append((color, mv))
            passes = passes + 1 if mv.lower() == "pass" else 0
            if passes >= 2:
                break
            color = "W" if color == "B" else "B"
        if result is None:
            result = ref.send("final_score")
        winner = result[0].upper()
        if winner not in "BW":
            points, who = 0.5, "nobody"  # jigo
        else:
            a_won = (winner == "B") == a_black
            points, who = (1.0, "A") if a_won else (0.0, "B")
        wins += points
        played += 1
        print(
            f"game {g + 1}: A plays {'black' if a_black else 'white'}, {len(moves)} moves, "
            f"{result} -> {who} wins; A {wins}/{played} "
            f"({time.time() - t0:.0f} s)",
            flush=True,
        )
        if args.sgf:
            os.makedirs(args.sgf, exist_ok=True)
            with open(os.path.join(args.sgf, f"game{g + 1:03}.sgf"), "w") as f:
                f.write(sgf(args.size, args.komi, moves, result))
    print(f"A scored {wins}/{played} = {100.0 * wins / max(played, 1):.0f}%")
    for e in (a, b, ref):
        e.close()


if __name__ == "__main__":
    sys.exit(main())
