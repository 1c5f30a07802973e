"""`altar simulate`: whole games with bot players, summarised.

Sete Selos is played card by card: each series deals the deck and drafts it
(3-4 players: keep one, pass the rest left; 2 players: the rulebook's
three-pile procedure, the Banished Cultist's cards taken blind from the top
of its pile), rituals follow the altar card's sign (the Banished plays the
top of its shuffled pile), then the redirects and removals the engine asks
for. Fantasmagória deals the example deck (altar_host.sim.randomplay.DECK) each
round, then the sacrifice, the tricks and the ghost piles. Both are played
by altar_host.sim.drivers. Every game is a session of the engine, so its log
(referee entry) replays to the same result.

Bots see their own hand and the table, never another seat's cards. Wins
are counted by seat and by position in turn order from the first player
(`positions`); `balance` pairs each option set's games with the
baseline's, seed by seed (`paired`).
Results for a seed are the same whatever --jobs, --cluster or --chunk is:
game i always uses seed + i, and the chunks' counts merge in seed order.
"""

import json
import math
import os
import sys
import time

from altar import log
from altar.core import Rejected, Session, decode
from altar.rng import Rng
from altar_host.sim import drivers, card_table
from altar_host.files import wrote
from altar_host.sim.randomplay import DECK
from altar_host.sim.bots import FaHeuristicBot, FaRandomBot, HeuristicBot, RandomBot
from altar_host.sim.search import FaSearchBot, SearchBot


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}
FA_BOTS = {"random": FaRandomBot, "heuristic": FaHeuristicBot, "search": FaSearchBot}
GAMES_BOTS = {"sete-selos": BOTS, "fantasmagoria": FA_BOTS}


# -- the games, by the drivers ----------------------------------------------------------------

def _bots(names, kinds, seed, players):
    """The players' bots: seat i's named names[i % len(names)], its own
    generator from the seed."""
    return [kinds[names[i % len(names)]](Rng(seed * 8 + i + 1)) for i in range(players)]


def sete_selos(players, seed, bot_names, options=None, first=None):
    """One whole game: its Session (header, actions, state). first: the
    first player's seat, or None to draw it from the seed."""
    rng = Rng(seed)
    # Drawn even when `first` is given, so game i deals the same cards
    # whatever --first says: only who is first changes.
    drawn = rng.below(players)
    s = Session(drivers.header("sete-selos", players, seed, drawn if first is None else first,
                               options))
    drivers.sete_selos(s.state, rng, card_table.seated(s.rules, _bots(bot_names, BOTS, seed, players)),
                       s.play)
    return s


def fantasmagoria(players, seed, bot_names, options=None, first=None):
    """One whole game on the example deck: its Session, as the table enters
    it (referee entry, naming the piles taken or not). first: None (the
    signature games share): the game has no first seat to fix."""
    if first is not None:
        raise ValueError(NO_FIRST)
    header = drivers.header("fantasmagoria", players, seed, options=options, deck=DECK)
    bots = _bots(bot_names, FA_BOTS, seed, players)
    return drivers.fantasmagoria(header, Rng(seed), bots)


GAMES = {"sete-selos": sete_selos, "fantasmagoria": fantasmagoria}
NO_FIRST = ("fantasmagoria has no first player to fix: the sacrifice chooses the first "
            "leader (--first random only)")


def parse_first(text, game, players):
    """--first: "random" (None: each game draws its first player) or a seat
    0..players-1; ValueError says what is wrong."""
    if text == "random":
        return None
    if game == "fantasmagoria":
        raise ValueError(NO_FIRST)
    try:
        seat = int(text)
    except ValueError:
        seat = -1
    if not 0 <= seat < players:
        raise ValueError("--first is a seat 0..%d (0 is P1) or random, not %r"
                         % (players - 1, text))
    return seat


# -- batches --------------------------------------------------------------------------------
#
# A batch is games seed..seed+games-1 under one or more option sets (each
# seed plays the same deal under every set), cut into chunks of consecutive
# seeds. Each chunk comes back as partial counts, and the partials merge in
# seed order: the result does not depend on where or in how many processes
# the chunks ran, nor on the chunk size. One process runs them in turn; more
# run on Dask (a local cluster of --jobs worker processes, or a running
# scheduler's with --cluster), which also reruns the chunk of a worker that
# dies.

def _outcome(s):
    """(winners, how the game ended, its length, final scores per seat or None)."""
    v = s.view()
    if v["game"] == "sete-selos":
        return v["winners"], v["reason"], v["ritual"], v["power"]
    how = "spirit" if v["spirit"] else "lowest"
    return v["winners"], how, s.count, v["scares"]


def first_player(s):
    """The seat positions count from. Sete Selos: the header's `first`, the
    first series' first player. Fantasmagória ignores `first`, so the first
    round's leader: the seat of the lowest sacrifice, found by applying the
    game's first record to a fresh state (the engine's rule, not a copy)."""
    if s.header["game"] != "fantasmagoria":
        return s.rules.first
    st = s.mod.State(s.rules)
    st.apply(decode(next(s.records())))
    return st.leader


def positions(s):
    """The seats in position order: the players clockwise from the first
    player (turn order), then the Banished Cultist of a 2-player Sete Selos
    game, a position of its own whoever is first."""
    n = len(s.rules.players)
    f = first_player(s)
    return [(f + k) % n for k in range(n)] + list(range(n, s.rules.seats))


def won(s):
    """(the seats that won, the positions that won) of finished session s."""
    winners = s.state.winners
    order = positions(s)
    return winners, [order.index(w) for w in winners]


def _count(counts, key):
    counts[key] = counts.get(key, 0) + 1


def _seats(game, players):
    return players + 1 if game == "sete-selos" and players == 2 else players


def empty(game, players):
    """The counts of no game."""
    seats = _seats(game, players)
    return {"games": 0, "no_winner": 0, "wins": [0] * seats, "position_wins": [0] * seats,
            "endings": {}, "lengths": {}, "scores": [{} for _ in range(seats)]}


def tally(part, s):
    """Count finished session s into the counts `part`; returns won(s), for
    pair()."""
    winners, how, length, final = _outcome(s)
    part["games"] += 1
    if not winners:      # a Sete Selos tie that no Elder breaks
        part["no_winner"] += 1
    result = won(s)
    for w, k in zip(*result):
        part["wins"][w] += 1
        part["position_wins"][k] += 1
    _count(part["endings"], how)
    _count(part["lengths"], str(length))
    for seat, x in enumerate(final or ()):
        _count(part["scores"][seat], str(x))
    return result


def empty_pairs(game, players):
    """The paired counts of no seed: for each seat and each position,
    [seeds it won only under the set, seeds it won only under the baseline]."""
    seats = _seats(game, players)
    return {"wins": [[0, 0] for _ in range(seats)],
            "position_wins": [[0, 0] for _ in range(seats)]}


def pair(pairs, result, base):
    """Count into `pairs` how a game's won() `result` and the baseline's
    `base` (the same seed) differ in who won, by seat and by position."""
    for key, mine, theirs in zip(("wins", "position_wins"), result, base):
        for i, row in enumerate(pairs[key]):
            d = (i in mine) - (i in theirs)
            if d:
                row[0 if d > 0 else 1] += 1


def empty_batch(game, players, sets):
    """The counts of no seed under `sets` option sets: each set's counts,
    and each set's paired counts against the first."""
    return {"sets": [empty(game, players) for _ in range(sets)],
            "paired": [empty_pairs(game, players) for _ in range(sets)]}


def run_chunk(job):
    """The partial counts (empty_batch's) of games seed..seed+count-1, each
    played under every option set; the first set's logs written if asked
    (simulate's one set)."""
    game, players, bots, seed, count, sets, first, logs = job
    part = empty_batch(game, players, len(sets))
    for i in range(count):
        played = [GAMES[game](players, seed + i, bots, options, first) for options in sets]
        results = [tally(counts, s) for counts, s in zip(part["sets"], played)]
        for pairs, result in zip(part["paired"], results):
            pair(pairs, result, results[0])
        if logs:
            with open(os.path.join(logs, "%s-%d.jsonl" % (game, seed + i)), "w") as f:
                log.write(played[0], f)
    return part


def merge(a, b):
    """a + b, element by element: numbers add, lists item by item, dicts key
    by key (a key one lacks counts 0 there)."""
    if isinstance(a, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = merge(out[k], v) if k in out else v
        return out
    if isinstance(a, list):
        return [merge(x, y) for x, y in zip(a, b)]
    return a + b


def wilson(k, n, z=1.96):
    """95% Wilson interval of k successes in n."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def rates(wins, n):
    """(win rate, its 95% Wilson interval) of each count of `wins` in n games."""
    return ([round(w / n, 4) if n else 0 for w in wins],
            [[round(x, 4) for x in wilson(w, n)] for w in wins])


def first_label(first):
    """--first as the summaries say it: "random", or the seat."""
    return "random" if first is None else first


def summarise(game, players, bots, seed, counts, options, seconds, wanted=None, first=None):
    """The batch's summary: its counts, win rates with 95% intervals by
    seat and by position, speed. wanted: the games asked for, when fewer
    finished (an interrupted run). first: --first's seat, None for random."""
    n = counts["games"]
    out = {"game": game, "players": players, "bots": bots, "seed": seed, "options": options or {},
           "first": first_label(first),
           "games_per_second": round(n / seconds, 1) if seconds else None}
    out.update(counts)
    out["win_rate"], out["win_rate_95"] = rates(counts["wins"], n)
    out["position_win_rate"], out["position_win_rate_95"] = rates(counts["position_wins"], n)
    # the games no one won: with the wins they add up to the games played
    (out["no_winner_rate"],), (out["no_winner_rate_95"],) = rates([counts["no_winner"]], n)
    if wanted is not None and wanted != n:
        out["interrupted"] = {"games_asked": wanted}
    return out


class Interrupted(Exception):
    """Ctrl-C during a batch: `counts` holds the chunks that finished."""

    def __init__(self, counts, seconds):
        Exception.__init__(self, "interrupted")
        self.counts = counts
        self.seconds = seconds


# Settings that keep Dask's own work out of the games' way (see the file).
WORKER_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dask", "altar.yaml")


def _IgnoreCtrlC():
    """A Dask worker plugin: a local cluster's worker processes share the
    terminal, so Ctrl-C reaches them too; this process cancels their chunks
    and closes the cluster, so they ignore it (and print no traceback, nor a
    warning for each chunk cancelled)."""
    import signal
    from dask.distributed import WorkerPlugin

    class IgnoreCtrlC(WorkerPlugin):
        def setup(self, worker):
            import logging
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            logging.getLogger("distributed").setLevel(logging.ERROR)   # "task cancelled"
    return IgnoreCtrlC()


class Workers:
    """Where chunks run: in this process (jobs=1, no Dask), on a local Dask
    cluster of `jobs` worker processes, or on the cluster whose scheduler is
    at `cluster`. A context manager; one Workers can run several batches."""

    def __init__(self, jobs=1, cluster=None):
        self.jobs = jobs
        self.address = cluster
        self.client = self.local = None

    def __enter__(self):
        if self.address or self.jobs > 1:
            import logging
            import dask
            import yaml
            from dask.distributed import Client, LocalCluster
            # A worker lost on purpose (or to Ctrl-C) is Dask's to handle, not news.
            logging.getLogger("distributed").setLevel(logging.ERROR)
            if self.address:
                self.client = Client(self.address)     # Dask's connect timeout (30 s)
            else:
                with open(WORKER_CONFIG) as f:
                    dask.config.update(dask.config.config, yaml.safe_load(f))
                self.local = LocalCluster(n_workers=self.jobs, threads_per_worker=1,
                                          processes=True, dashboard_address=None)
                self.client = Client(self.local)
                self.client.register_plugin(_IgnoreCtrlC())
        return self

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()
        if self.local is not None:
            self.local.close()

    def count(self):
        """Worker processes (threads, on a cluster)."""
        if self.client is None:
            return 1
        return max(1, sum(self.client.nthreads().values()))

    def run(self, chunks):
        """(index, partial) for each chunk as it finishes; on Ctrl-C the
        chunks not finished are cancelled."""
        if self.client is None:
            for i, c in enumerate(chunks):
                yield i, run_chunk(c)
            return
        from dask.distributed import as_completed
        futures = self.client.map(run_chunk, chunks, pure=False)     # keys of this run only
        index = {f.key: i for i, f in enumerate(futures)}
        left = len(futures)
        try:
            for f in as_completed(futures):
                yield index[f.key], f.result()
                left -= 1
        finally:
            if left:
                self.client.cancel(futures)


def batch(game, players, bots, games, seed, sets, workers=None, first=None, logs=None,
          progress=None, chunk=None):
    """The counts (empty_batch's, run_chunk's merged) of games
    seed..seed+games-1 under each option set of `sets`, and the seconds
    they took, on `workers` (a Workers; None: this process).
    progress(done, total) follows the chunks as they finish. Ctrl-C raises
    Interrupted with the finished chunks' counts."""
    workers = workers or Workers()
    if chunk is None:       # few tasks (each costs the scheduler, on the same cores), enough
        chunk = max(1, min(2000, -(-games // (4 * workers.count()))))     # to even out the end
    chunks = [(game, players, bots, seed + a, min(chunk, games - a), sets, first, logs)
              for a in range(0, games, chunk)]
    t = time.time()
    parts = [None] * len(chunks)
    done = 0

    def merged():       # in seed order, whichever finished first
        out = empty_batch(game, players, len(sets))
        for p in parts:
            if p is not None:
                out = merge(out, p)
        return out
    try:
        for i, part in workers.run(chunks):
            parts[i] = part
            done += part["sets"][0]["games"]
            if progress:
                progress(done, games)
    except KeyboardInterrupt:
        raise Interrupted(merged(), time.time() - t)
    return merged(), time.time() - t


def simulate(game, players, bots, games, seed, workers=None, options=None, logs=None,
             progress=None, chunk=None, first=None):
    """The counts (empty's) of games seed..seed+games-1 under `options`, and
    the seconds they took: batch's, for one option set. Ctrl-C raises
    Interrupted with the finished chunks' counts."""
    try:
        counts, seconds = batch(game, players, bots, games, seed, [options], workers, first,
                                logs, progress, chunk)
    except Interrupted as stop:
        raise Interrupted(stop.counts["sets"][0], stop.seconds)
    return counts["sets"][0], seconds


class Bar:
    """The games done as the chunks finish, drawn by rich on stderr: a bar,
    the count, games a second and the time left. Open (a context manager)
    while the batch runs; called as batch()'s `progress`."""

    def __init__(self, total, stream=None):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeRemainingColumn)
        self.progress = Progress(BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                                 TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                                 console=Console(file=stream or sys.stderr))
        self.task = self.progress.add_task("games", total=total, rate="")
        self.start = time.time()

    def __enter__(self):
        self.progress.start()
        return self

    def __exit__(self, *exc):
        self.progress.stop()

    def __call__(self, done, total):
        dt = time.time() - self.start
        self.progress.update(self.task, completed=done,
                             rate="%.0f games/s" % (done / dt) if dt > 0 else "")


def progress_bar(total):
    """A Bar on a terminal; elsewhere none (the context gives None)."""
    import contextlib
    return Bar(total) if sys.stderr.isatty() else contextlib.nullcontext()


def parse_options(pairs):
    """KEY=VALUE strings to an options dict: a value is JSON, or plain text
    (power=[1,2,3], banished_removal=high); ValueError for a KEY without
    =VALUE, or a value that starts as JSON and is not."""
    options = {}
    for kv in pairs:
        k, eq, v = kv.partition("=")
        if not k or not eq:
            raise ValueError("%r is not KEY=VALUE" % kv)
        try:
            options[k] = json.loads(v)
        except ValueError as e:
            if v[:1] in '[{"':
                raise ValueError("the value of %s is malformed JSON (%s): %s" % (k, e, v))
            options[k] = v
    return options


CHANGE = ("paired: for each seed, won under the set (1 or 0) minus won under the baseline, "
          "on the same deal; the mean of those differences, with a 95% interval by the normal "
          "approximation on them")


def paired(gained, lost, n, z=1.96):
    """The mean per-seed difference of n seeds, each +1 (`gained`: won only
    under the set), -1 (`lost`: won only under the baseline) or 0, and its
    95% interval by the normal approximation on those differences (Wald's
    interval for paired proportions). The same deal on both sides cancels
    what the option does not change, so it is narrower than two independent
    rates' interval."""
    d = (gained - lost) / n
    h = z * math.sqrt(((gained + lost) / n - d * d) / n)
    return round(d, 4), [round(d - h, 4), round(d + h, 4)]


def balance(args, workers):
    """Each option set (KEY=VALUE;KEY=VALUE; "" for the defaults) on the same
    seeds; win rates by seat and by position and how games end, each set's
    change from the first paired seed by seed."""
    bots = args.bots.split(",")
    first = parse_first(args.first, args.game, args.players)
    sets = [parse_options([kv for kv in s.split(";") if kv]) for s in args.set]
    with progress_bar(args.games) as bar:
        counts, secs = batch(args.game, args.players, bots, args.games, args.seed,
                             [options or None for options in sets], workers, first,
                             progress=bar)
    rows = []
    for options, c, pairs in zip(sets, counts["sets"], counts["paired"]):
        r = summarise(args.game, args.players, bots, args.seed, c, options, secs, first=first)
        row = {k: r[k] for k in ("options", "no_winner", "no_winner_rate", "no_winner_rate_95",
                                 "win_rate", "win_rate_95", "position_win_rate",
                                 "position_win_rate_95", "endings", "lengths")}
        # the baseline against itself: every seed differs by 0, an interval of width 0
        for key, change in (("wins", "win_rate_change"),
                            ("position_wins", "position_win_rate_change")):
            row[change] = [paired(g, l, c["games"]) for g, l in pairs[key]]
        rows.append(row)
    return {"game": args.game, "players": args.players, "bots": bots, "seed": args.seed,
            "games": args.games, "first": first_label(first), "change": CHANGE, "sets": rows}


def seat_bots(names, game, players):
    """The bot of each player's seat from --bots: one name for every seat,
    or exactly one per seat; ValueError says what is wrong."""
    table = GAMES_BOTS[game]
    for b in names:
        if b not in table:
            raise ValueError("unknown bot %r; the bots are %s" % (b, ", ".join(sorted(table))))
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError("--bots names one bot for every seat or one per seat (%d for %d "
                         "players), not %d" % (players, players, len(names)))
    return names


def _check(args, name):
    """The arguments' trouble, as a message, or None."""
    from altar.core import game_module
    if args.games < 1:
        return "altar %s: --games must be at least 1" % name
    if args.jobs < 1:
        return "altar %s: --jobs must be at least 1" % name
    try:
        seat_bots(args.bots.split(","), args.game, args.players)
        parse_first(args.first, args.game, args.players)
        sets = [getattr(args, "option", None) or ()]
        if name == "balance":
            sets = [[kv for kv in s.split(";") if kv] for s in args.set]
        deck = DECK if args.game == "fantasmagoria" else None
        for pairs in sets:      # the engine's own word on players and options
            game_module(args.game).Rules(["P"] * args.players, 0, 0, parse_options(pairs), deck)
    except (ValueError, Rejected) as e:
        return "altar %s: %s" % (name, e)
    return None


def main_balance(args):
    why = _check(args, "balance")
    if why:
        print(why, file=sys.stderr)
        return 2
    try:
        with Workers(args.jobs, args.cluster) as workers:
            result = balance(args, workers)
    except Interrupted:
        print("altar balance: interrupted; nothing written", file=sys.stderr)
        return 130
    except (OSError, TimeoutError) as e:
        print("altar balance: cannot reach the cluster: %s" % e, file=sys.stderr)
        return 2
    except Rejected as e:      # a game the engine refuses; anything else is a bug: its traceback
        print("altar balance: %s" % e, file=sys.stderr)
        return 2
    if args.json or not sys.stdout.isatty():
        print(json.dumps(result, sort_keys=True))
    else:
        from altar_host import summary
        print(summary.balance(result))
    if args.report:
        from altar_host.sim import report
        if not wrote("balance", args.report, report.write_balance, args.report, result):
            return 2
    return 0


# What `altar simulate --json` prints; summary.json (--report) has the rest.
PRINTED = ("game", "players", "bots", "games", "first", "win_rate", "win_rate_95", "no_winner",
           "no_winner_rate", "no_winner_rate_95", "position_win_rate", "position_win_rate_95",
           "endings", "games_per_second")


def main(args):
    why = _check(args, "simulate")
    if why:
        print(why, file=sys.stderr)
        return 2
    options = parse_options(args.option or ())
    bots = args.bots.split(",")
    first = parse_first(args.first, args.game, args.players)
    if args.logs and not wrote("simulate", args.logs, os.makedirs, args.logs, exist_ok=True):
        return 2
    code = 0
    try:
        with Workers(args.jobs, args.cluster) as workers, progress_bar(args.games) as bar:
            counts, secs = simulate(args.game, args.players, bots, args.games, args.seed,
                                    workers, options or None, args.logs, bar, args.chunk,
                                    first)
    except Interrupted as stop:
        counts, secs, code = stop.counts, stop.seconds, 130
        sys.stderr.write("\naltar simulate: interrupted: %d of %d games finished, summarised "
                         "below\n" % (counts["games"], args.games))
    except (OSError, TimeoutError) as e:
        print("altar simulate: cannot reach the cluster: %s" % e, file=sys.stderr)
        return 2
    except Rejected as e:      # a game the engine refuses; anything else is a bug: its traceback
        print("altar simulate: %s" % e, file=sys.stderr)
        return 2
    summary = summarise(args.game, args.players, bots, args.seed, counts, options, secs,
                        args.games, first)
    if args.json or not sys.stdout.isatty():
        print(json.dumps({k: summary[k] for k in PRINTED}, sort_keys=True))
    else:
        from altar_host import summary as words
        print(words.simulation(summary))
    if args.report:     # after the summary: a report refused does not lose the games played
        from altar_host.sim import report
        if not wrote("simulate", args.report, report.write, args.report, summary):
            return 2
    return code
