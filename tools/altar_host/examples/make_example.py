"""Rewrite the bundled example game (a random legal 4-player game, seed 1)."""

import os

from altar import log
from altar_host.randomplay import sete_selos_game

if __name__ == "__main__":
    h, actions = sete_selos_game(4, seed=1, quick=10)
    path = os.path.join(os.path.dirname(__file__), "sete-selos-4p.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for line in log.lines(h, actions):
            f.write(line + "\n")
