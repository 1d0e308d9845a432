#!/usr/bin/env python3
"""Labels the positions of Gomoku games with another engine's evaluation, for the training
program of Qi's pattern evaluation (`crates/qi-core/examples/gomoku_patterns.rs`, `train`).

    scripts/rapfi-label.py --engine /path/to/pbrain-rapfi games.txt labelled.txt --ms 50

`games.txt` holds the games of `gomoku_patterns gen` (`<rule> <B|W|D> <moves>`). Every position
after four stones up to the one before the last move is sent to the engine (Gomocup protocol,
`BOARD`, its own stones as the side to move's) with `INFO timeout_turn <ms>`; the evaluation it
reports last (a `MESSAGE` line with `Eval <v>` or `Eval +M<n>`/`-M<n>`, as Rapfi writes them)
becomes the side to move's winning chance 1/(1 + exp(-v/200)) (Rapfi's scale; a mate 0.99 or
0.01), written as `<rule> P <p> <moves>`. A position without a reported evaluation is left out.
The engine is started in its own directory (Rapfi reads its config.toml there). Rapfi drops a
command that comes while it still counts itself as thinking just after it answered, so each
position waits 20 ms before it is sent and is sent again (up to three times) after an ERROR.
"""

import argparse
import math
import os
import re
import subprocess
import sys
import time

RULES = {"freestyle": 0, "standard": 1, "renju": 4}
MOVE_LINE = re.compile(r"\d+,\d+")
EVAL = re.compile(r"Eval ([+-]?M?\d+)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the Gomocup engine (e.g. pbrain-rapfi)")
    ap.add_argument("games")
    ap.add_argument("out")
    ap.add_argument("--ms", type=int, default=50, help="timeout_turn of each position")
    args = ap.parse_args()

    eng = os.path.abspath(args.engine)
    p = subprocess.Popen([eng], cwd=os.path.dirname(eng), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def read_until(done):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine closed its output")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def point(t):
        # a move text such as h8: column letter, row from the bottom; Gomocup's y from the top
        return ord(t[0]) - ord("a"), 14 - (int(t[1:]) - 1)

    send("START 15")
    read_until(lambda l: l == "OK")
    rule_sent, n, t0 = None, 0, time.time()
    with open(args.games) as f, open(args.out, "w") as w:
        for gi, line in enumerate(f):
            parts = line.split()
            if len(parts) < 3 or parts[0] not in RULES:
                continue
            rule, moves = parts[0], parts[2:]
            if rule != rule_sent:
                send(f"INFO rule {RULES[rule]}")
                send(f"INFO timeout_turn {args.ms}")
                send("INFO timeout_match 0")
                rule_sent = rule
                time.sleep(0.05)
            for k in range(4, len(moves)):
                pos = moves[:k]
                to_move = len(pos) % 2
                for _ in range(3):
                    time.sleep(0.02)
                    send("BOARD")
                    for i, t in enumerate(pos):
                        x, y = point(t)
                        send(f"{x},{y},{1 if i % 2 == to_move else 2}")
                    send("DONE")
                    lines = read_until(lambda l: MOVE_LINE.fullmatch(l) or l.startswith("ERROR"))
                    if not lines[-1].startswith("ERROR"):
                        break
                evals = [EVAL.search(l) for l in lines if l.startswith("MESSAGE")]
                evals = [e.group(1) for e in evals if e]
                if not evals:
                    continue
                e = evals[-1]
                if "M" in e:
                    prob = 0.01 if e.startswith("-") else 0.99
                else:
                    prob = 1 / (1 + math.exp(-int(e) / 200))
                w.write(f"{rule} P {prob:.4f} {' '.join(pos)}\n")
                n += 1
            w.flush()
            if (gi + 1) % 20 == 0:
                print(f"{gi + 1} games, {n} positions, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    send("END")


if __name__ == "__main__":
    main()
