#!/usr/bin/env python3
"""Fit the search bots' value of a series' or round's end (altar_host.sim.search).

    .venv/bin/python tools/make/fit_value.py [--games N] [--seed S]

Plays N games of heuristic bots for each player count of Sete Selos (N / 4
of Fantasmagória, slower), takes the state after every series or round that
did not end the game, and fits a conditional logit (P(seat wins) = softmax
over seats of features . weights) by Newton's method with a small ridge.
Sete Selos' features are search.FEATURES, one weight set per player count;
Fantasmagória's is each seat's track, one weight per player count and
round played. Prints
WEIGHTS and FA_WEIGHTS for search.py and, on games kept apart, each model's
log-loss beside the uniform guess's.
"""

import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "lib"), os.path.join(ROOT, "tools")]

from altar.core import Session  # noqa: E402
from altar_host.sim import search, simulate  # noqa: E402


def samples(players, seeds, fa_round=0):
    """(features per seat, winner) at every series' end of Sete Selos games,
    or at the end of round `fa_round` of Fantasmagória games."""
    out = []
    for seed in seeds:
        if fa_round:
            game = simulate.fantasmagoria(players, seed, ["heuristic"])
            replay = Session(game.header)
            st = replay.state
            for t in game.history:
                st.apply(t)
                if st.round == fa_round + 1 and not st.over:
                    lo = min(st.track)
                    out.append(([(t - lo,) for t in st.track], game.state.winners[0]))
                    break
            continue
        game = simulate.sete_selos(players, seed, ["heuristic"])
        if len(game.state.winners) != 1:
            continue
        won = game.state.winners[0]
        replay = Session(game.header)
        st = replay.state
        for t in game.history:
            st.apply(t)
            if st.ritual % 7 == 0 and st.ritual and not st.wait and not st.over:
                out.append((search.features(st), won))
    return out


def arrays(data):
    x = np.array([[[float(v) for v in f] for f in fs] for fs, _ in data])
    y = np.array([w for _, w in data])
    return x, y


def loss(w, x, y):
    z = x @ w
    z -= z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(y)), y].mean()


def fit(x, y, ridge=1e-3, steps=30):
    n, _, k = x.shape
    w = np.zeros(k)
    for _ in range(steps):
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * x).sum(axis=1)                      # n x k
        grad = (x[np.arange(n), y] - mean).sum(axis=0) - ridge * n * w
        second = np.einsum("ns,nsk,nsl->kl", p, x, x) - mean.T @ mean
        hess = second + ridge * n * np.eye(k)
        w += np.linalg.solve(hess, grad)
    return w


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print("WEIGHTS = {")
    notes = []
    for players in (2, 3, 4):
        train = samples(players, range(args.seed, args.seed + args.games))
        test = samples(players, range(args.seed + args.games, args.seed + args.games * 5 // 4))
        x, y = arrays(train)
        w = fit(x, y)
        xt, yt = arrays(test)
        seats = xt.shape[1]
        notes.append("# %d players: %d states; held-out log-loss %.3f (uniform %.3f)"
                     % (players, len(train), loss(w, xt, yt), np.log(seats)))
        print("    %d: (%s)," % (players, ", ".join("%.3f" % v for v in w)))
    print("}")
    print("FA_WEIGHTS = {")
    games = range(args.seed, args.seed + args.games // 4)
    held = range(args.seed + args.games // 4, args.seed + args.games * 5 // 16)
    for players in (3, 4):
        for rnd in (1, 2):
            x, y = arrays(samples(players, games, rnd))
            w = fit(x, y)
            xt, yt = arrays(samples(players, held, rnd))
            notes.append("# Fantasmagória, %d players, after round %d: %d states; held-out "
                         "log-loss %.3f (uniform %.3f)"
                         % (players, rnd, len(y), loss(w, xt, yt), np.log(players)))
            print("    (%d, %d): %.3f," % (players, rnd, w[0]))
    print("}")
    print("\n".join(notes))


if __name__ == "__main__":
    main()
