"""Rewrite the bundled example games (random legal games, fixed seeds)."""

import os

from altar import log
from altar_host.sim.randomplay import fantasmagoria_game, ritos_game, sete_selos_game

EXAMPLES = {
    "sete-selos-4p.jsonl": lambda: sete_selos_game(4, seed=1, quick=10),
    # The Banished wins series 1's last ritual, so the first player changes.
    "sete-selos-2p.jsonl": lambda: sete_selos_game(2, seed=100, quick=30),
    "ritos-ancestrais-3p.jsonl": lambda: ritos_game(3, seed=4),
    # Filipi Bode won with, a Copo trapping scares, ghost leads, the spirit's tie-break.
    "fantasmagoria-4p.jsonl": lambda: fantasmagoria_game(4, seed=27),
}

if __name__ == "__main__":
    for name, make in sorted(EXAMPLES.items()):
        h, actions = make()
        with open(os.path.join(os.path.dirname(__file__), name), "w", encoding="utf-8") as f:
            for line in log.lines(h, actions):
                f.write(line + "\n")
