"""`altar simulate`: whole games with bot players, summarised.

Sete Selos is played card by card: each series deals the deck and drafts it
(3-4 players: keep one, pass the rest left; 2 players: the rulebook's
three-pile procedure, the Banished Cultist's cards taken blind from the top
of its pile), rituals follow the altar card's sign (the Banished plays the
top of its shuffled pile), then the redirects and removals the engine asks
for. Fantasmagória games come from altar_host.randomplay (random legal play
on the example deck). Every game is a session of the engine, so its log
(referee entry) replays to the same result.

Bots see their own hand and the table, never another seat's cards.
Results for a seed are the same whatever --jobs, --cluster or --chunk is:
game i always uses seed + i, and the chunks' counts merge in seed order.
"""

import json
import math
import os
import sys
import time

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import log
from altar import sete_selos as ss
from altar import sete_selos_cards as ssc
from altar.core import Session
from altar.rng import Rng
from altar_host.randomplay import random_removal


# -- bots ---------------------------------------------------------------------------------

class RandomBot:
    """Any legal choice."""
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def pick(self, items):
        return items[self.rng.below(len(items))]

    def keep(self, seat, cards, state):
        return self.pick(cards)

    def play(self, seat, legal, trick, state):
        return self.pick(legal)

    def redirect(self, seat, sealed, state):
        return self.pick(sealed)

    def remove(self, seat, count, state):
        return random_removal(state, seat, count, self.rng)


class HeuristicBot(RandomBot):
    """Keeps trumps and high cards; wins a ritual as cheaply as it can, else
    throws its weakest card; redirects to its biggest stack; removes as the
    engine suggests."""
    name = "heuristic"

    def keep(self, seat, cards, state):
        return max(cards, key=lambda c: (c[0] == 0, c[1], -c[0]))

    def play(self, seat, legal, trick, state):
        winning = []
        for c in legal:
            if ssc.ritual_winner(trick + [c]) == len(trick):
                winning.append(c)
        if winning:
            return min(winning, key=lambda c: (c[0] == 0, c[1], c[0]))
        return min(legal, key=lambda c: (c[0] == 0, c[1], c[0]))

    def redirect(self, seat, sealed, state):
        own = state.stacks(seat)
        return max(sealed, key=lambda e: (own[e - 1], e))

    def remove(self, seat, count, state):
        return ss.suggest(state, seat)


class FaRandomBot:
    """Fantasmagória: any legal card."""

    def __init__(self, rng):
        self.rng = rng

    def sacrifice(self, seat, cards, state):
        return cards[self.rng.below(len(cards))]

    def play(self, seat, legal, trick, state):
        return legal[self.rng.below(len(legal))]


class FaHeuristicBot(FaRandomBot):
    """Fantasmagória: sacrifices its highest card; follows as low as it can,
    avoiding the trump number; when it cannot follow, throws what scares
    most (a positive cursed card, a ghost, then its highest card)."""

    def sacrifice(self, seat, cards, state):
        return max(cards, key=lambda c: (c & 31, c))

    def play(self, seat, legal, trick, state):
        trump = state.trump
        lead = fc.lead_suit(trick, state.rules.free_copo) if trick else -1
        follows = [c for c in legal if lead >= 0 and c >> 5 & 7 == lead]
        if follows or not trick:
            pool = follows or legal
            return min(pool, key=lambda c: (c & 31 == trump, c & 31, c))

        def scare(c):
            if c == fa.COPO:
                return (0, 0)
            s = c >> 5 & 7
            if c & fa.CURSED:
                return (3, fa.SCARES[s]) if fa.SCARES[s] > 0 else (-1, 0)
            return (2 if s == 4 else 1, c & 31)
        return max(legal, key=lambda c: (scare(c), c))


class Node:
    """A node of the search tree: a ritual card played after the path above."""
    __slots__ = ("children", "visits", "wins", "avail")

    def __init__(self):
        self.children = {}
        self.visits = 0
        self.wins = 0
        self.avail = 1       # iterations in which this card could be played here


class TreePolicy(HeuristicBot):
    """Every seat's ritual cards inside one search iteration: down the tree
    by UCB1 among the cards this deal allows (availability counts), one new
    card added, then the heuristic's play. `walk` is shared by the seats."""

    def __init__(self, rng, walk):
        self.rng = rng
        self.walk = walk       # [node or None, path of (node, seat)]

    def play(self, seat, legal, trick, state):
        node = self.walk[0]
        if node is None:
            return HeuristicBot.play(self, seat, legal, trick, state)
        fresh = []
        for c in legal:
            child = node.children.get(c)
            if child is None:
                fresh.append(c)
            else:
                child.avail += 1
        if fresh:
            c = fresh[self.rng.below(len(fresh))]
            child = node.children[c] = Node()
            self.walk[0] = None            # expanded: the rest is a playout
        else:
            c = max(legal, key=lambda c: _ucb(node.children[c]) + c[1] * 1e-9 + c[0] * 1e-10)
            child = node.children[c]
            self.walk[0] = child
        self.walk[1].append((child, seat))
        return c


def _ucb(n):
    return n.wins / n.visits + 0.7 * math.sqrt(math.log(n.avail) / n.visits) if n.visits else 9.0


class SearchBot(HeuristicBot):
    """Information-set Monte Carlo tree search (single observer) for each
    ritual's card; the other choices are the heuristic's. Every iteration
    deals the cards this seat has not seen to the others, consistent with
    what it has seen (its own hand, the cards played this series, the signs
    each seat showed it lacks); replays the session; goes down the tree of
    ritual cards played by every seat, choosing by UCB1 among the cards that
    deal allows; adds one node; plays on with heuristic bots; and credits
    each node on the path with a win when the seat that played it won. The
    root's most-visited card is played."""
    name = "search"
    iterations = 48

    def play(self, seat, legal, trick, state):
        if len(legal) == 1:
            return legal[0]
        root = Node()
        s = self.session
        history = s.history
        for _ in range(self.iterations):
            hands = self._deal(seat, state, trick)
            if hands is None:            # no consistent deal found: play by rule of thumb
                return HeuristicBot.play(self, seat, legal, trick, state)
            walk = [root, []]
            policy = [TreePolicy(self.rng, walk) for _ in range(state.rules.seats)]
            card = policy[seat].play(seat, legal, trick, state)
            hands[seat] = [c for c in self.hand if c != card]
            sim = Session(s.header)
            sim.kept = bytearray(s.kept)
            for t in history:            # a replay: every record was checked already
                sim.state.apply(t)
            play_out(sim, hands, policy, self.rng, trick + [card])
            winners = sim.state.winners
            for node, who in walk[1]:
                node.visits += 1
                node.wins += who in winners
        self.root = root                 # the last search's tree, for a look
        return max(legal, key=lambda c: (root.children[c].visits if c in root.children else -1, c))

    def _deal(self, seat, st, trick):
        """Hidden hands for every other seat, from what `seat` has seen."""
        r = st.rules
        n = r.seats
        seen = set(self.hand) | set(trick)
        for g in range(4):
            for v in range(1, 8):
                if st.played[g] >> v & 1:
                    seen.add((g, v))
        unseen = [(g, v) for g in range(4) if r.signs >> g & 1 for v in range(1, 8)
                  if (g, v) not in seen]
        done = st.ritual % 7
        already = [(st.leader + i) % n for i in range(len(trick))]
        need = [7 - done - (o in already) if o != seat else 0 for o in range(n)]

        lacks = list(st.void)
        for i in range(len(trick)):      # this ritual shows more, not yet in the state
            if trick[i][0] != trick[0][0]:
                lacks[already[i]] |= 1 << trick[0][0]

        def may(o, c):
            return o == r.banished or not lacks[o] >> c[0] & 1
        # The cards fewest seats may hold go first, each to a seat that may
        # hold it, chosen at random by how many cards it still needs.
        cards = sorted(unseen, key=lambda c: (sum(1 for o in range(n) if need[o] and may(o, c)),
                                              c))
        for _ in range(200):
            left = list(need)
            hands = [[] for _ in range(n)]
            for c in cards:
                total = sum(left[o] for o in range(n) if left[o] and may(o, c))
                if not total:
                    break
                k = self.rng.below(total)
                for o in range(n):
                    if left[o] and may(o, c):
                        if k < left[o]:
                            hands[o].append(c)
                            left[o] -= 1
                            break
                        k -= left[o]
            else:
                for h in hands:
                    self.rng.shuffle(h)      # the Banished's pile order is hidden too
                return hands
        return None


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}
FA_BOTS = {"random": FaRandomBot, "heuristic": FaHeuristicBot}


# -- Sete Selos, card by card ---------------------------------------------------------------

def _draft(state, rules, rng, bots):
    """Deal the series and draft it: the 7 cards each seat keeps, in order."""
    deck = [(g, v) for g in range(4) if rules.signs >> g & 1 for v in range(1, 8)]
    rng.shuffle(deck)
    n = rules.seats
    hands = [deck[i * 7:i * 7 + 7] for i in range(n)]
    kept = [[] for _ in range(n)]
    if rules.banished < 0:
        for _ in range(7):
            for seat in range(n):
                c = bots[seat].keep(seat, hands[seat], state)
                hands[seat].remove(c)
                kept[seat].append(c)
            hands = [hands[(i - 1) % n] for i in range(n)]     # the rest passes left
        return kept
    # 2 players: the first player (the dealer), the second, the Banished's pile
    first = state.dealer
    second = 1 - first
    b = rules.banished
    for _ in range(7):
        for seat in (first, second):
            c = bots[seat].keep(seat, hands[seat], state)
            hands[seat].remove(c)
            kept[seat].append(c)
        kept[b].append(hands[b].pop(0))        # blind, from the top
        rest_first, rest_second = hands[first], hands[second]
        rng.shuffle(rest_second)
        hands[first], hands[second], hands[b] = hands[b], rest_first, rest_second
    rng.shuffle(kept[b])
    return kept


def sete_selos(players, seed, bot_names, options=None):
    """One whole game: its Session (header, actions, state)."""
    rng = Rng(seed)
    header = {"altar": 1, "game": "sete-selos",
              "players": ["P%d" % (i + 1) for i in range(players)],
              "first": rng.below(players), "seed": seed}
    if options:
        header["options"] = options
    s = Session(header)
    bots = [BOTS[bot_names[i % len(bot_names)]](Rng(seed * 8 + i + 1))
            for i in range(s.rules.seats)]
    for b in bots:
        b.session = s
    play_out(s, None, bots, rng)
    return s


def play_out(s, hands, bots, rng, trick=None):
    """Play session s to its end: hands are the current series' cards per
    seat (None: deal the next series), trick the current ritual's cards so
    far. A bot may look at `bot.hand` (its own cards), nothing else."""
    st = s.state
    r = s.rules
    series = st.ritual // 7 if hands is not None else -1
    trick = trick or []
    while not st.over:
        if st.wait:
            aw = st.view()["awaiting"]
            if aw["do"] == "redirect":
                sealed = [e + 1 for e in range(7) if not st.rev >> e & 1]
                s.play(bytes((3, bots[st.wseat].redirect(st.wseat, sealed, st) - 1)))
            else:
                elders = bots[st.wseat].remove(st.wseat, st.wcount, st)
                s.play(bytes([4, st.wseat] + [e - 1 for e in elders]))
            continue
        if st.ritual // 7 != series:
            series = st.ritual // 7
            hands = _draft(st, r, rng, bots)
        for i in range(len(trick), r.seats):
            seat = (st.leader + i) % r.seats
            h = hands[seat]
            if seat == r.banished:
                c = h[0]
            else:
                legal = [c for c in h if c[0] == trick[0][0]] if trick else h
                bots[seat].hand = h
                c = bots[seat].play(seat, legal or h, trick, st)
            h.remove(c)
            trick.append(c)
        s.play(bytes([2] + [g * 8 + v for g, v in trick]))
        trick = []


def fantasmagoria(players, seed, bot_names, options=None):
    from altar_host.randomplay import fantasmagoria_game
    bots = [FA_BOTS[bot_names[i % len(bot_names)]](Rng(seed * 8 + i + 1)) for i in range(players)]
    header, actions = fantasmagoria_game(players, seed, options=options, bots=bots)
    s = Session(header)
    for a in actions:
        s.do(a)
    return s


GAMES = {"sete-selos": sete_selos, "fantasmagoria": fantasmagoria}


# -- batches --------------------------------------------------------------------------------
#
# A batch is games seed..seed+games-1, cut into chunks of consecutive seeds.
# Each chunk comes back as a partial summary (counts only), and the partials
# merge in seed order: the summary does not depend on where or in how many
# processes the chunks ran, nor on the chunk size. One process runs them in
# turn; more run on Dask (a local cluster of --jobs worker processes, or a
# running scheduler's with --cluster), which also reruns the chunk of a
# worker that dies.

def _outcome(s):
    """(winners, how the game ended, its length, final scores per seat or None)."""
    v = s.view()
    if v["game"] == "sete-selos":
        return v["winners"], v["reason"], v["ritual"], v["power"]
    how = "spirit" if v["spirit"] else "lowest"
    return v["winners"], how, len(s.history), v["scares"]


def _count(counts, key):
    counts[key] = counts.get(key, 0) + 1


def empty(game, players):
    """The counts of no game."""
    seats = players + 1 if game == "sete-selos" and players == 2 else players
    return {"games": 0, "wins": [0] * seats, "endings": {}, "lengths": {},
            "scores": [{} for _ in range(seats)]}


def tally(part, s):
    """Count finished session s into the counts `part`."""
    winners, how, length, final = _outcome(s)
    part["games"] += 1
    for w in winners:
        part["wins"][w] += 1
    _count(part["endings"], how)
    _count(part["lengths"], str(length))
    for seat, x in enumerate(final or ()):
        _count(part["scores"][seat], str(x))


def run_chunk(job):
    """The partial summary of games seed..seed+count-1 (their logs written
    if asked): games, wins per seat, endings, lengths, scores per seat."""
    game, players, bots, seed, count, options, logs = job
    part = empty(game, players)
    for i in range(count):
        s = GAMES[game](players, seed + i, bots, options)
        tally(part, s)
        if logs:
            with open(os.path.join(logs, "%s-%d.jsonl" % (game, seed + i)), "w") as f:
                log.write(s, f)
    return part


def merge(out, parts):
    """The counts `out` plus each partial's, in the order given."""
    for p in parts:
        out["games"] += p["games"]
        out["wins"] = [a + b for a, b in zip(out["wins"], p["wins"])]
        for key in ("endings", "lengths"):
            for k, v in p[key].items():
                out[key][k] = out[key].get(k, 0) + v
        for mine, theirs in zip(out["scores"], p["scores"]):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
    return out


def wilson(k, n, z=1.96):
    """95% Wilson interval of k successes in n."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def summarise(game, players, bots, seed, counts, options, seconds, wanted=None):
    """The batch's summary: its counts, win rates with 95% intervals, speed.
    wanted: the games asked for, when fewer finished (an interrupted run)."""
    n = counts["games"]
    out = {"game": game, "players": players, "bots": bots, "seed": seed, "options": options or {},
           "games_per_second": round(n / seconds, 1) if seconds else None}
    out.update(counts)
    out["win_rate"] = [round(w / n, 4) if n else 0 for w in counts["wins"]]
    out["win_rate_95"] = [[round(x, 4) for x in wilson(w, n)] for w in counts["wins"]]
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


def simulate(game, players, bots, games, seed, workers=None, options=None, logs=None,
             progress=None, chunk=None):
    """The counts of games seed..seed+games-1 (run_chunk's, merged) and the
    seconds they took, on `workers` (a Workers; None: this process).
    progress(done, total) follows the chunks as they finish. Ctrl-C raises
    Interrupted with the finished chunks' counts."""
    workers = workers or Workers()
    if chunk is None:       # few tasks (each costs the scheduler, on the same cores), enough
        chunk = max(1, min(2000, -(-games // (4 * workers.count()))))     # to even out the end
    chunks = [(game, players, bots, seed + a, min(chunk, games - a), options, logs)
              for a in range(0, games, chunk)]
    t = time.time()
    parts = [None] * len(chunks)
    done = 0
    try:
        for i, part in workers.run(chunks):
            parts[i] = part
            done += part["games"]
            if progress:
                progress(done, games)
    except KeyboardInterrupt:
        raise Interrupted(merge(empty(game, players), [p for p in parts if p is not None]),
                          time.time() - t)
    return merge(empty(game, players), parts), time.time() - t


def bar(done, total):
    """A progress bar on stderr."""
    n = 30 * done // max(total, 1)
    sys.stderr.write("\r[%s%s] %d/%d games" % ("#" * n, "." * (30 - n), done, total))
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def parse_options(pairs):
    """KEY=VALUE strings (values as JSON, else text) to an options dict."""
    options = {}
    for kv in pairs:
        k, _, v = kv.partition("=")
        try:
            options[k] = json.loads(v)
        except ValueError:
            options[k] = v
    return options


def difference(k1, k2, n):
    """k2/n - k1/n and its 95% interval (normal approximation; the games
    share seeds, so this is conservative)."""
    p1, p2 = k1 / n, k2 / n
    h = 1.96 * math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / n)
    d = p2 - p1
    return round(d, 4), [round(d - h, 4), round(d + h, 4)]


def balance(args, workers):
    """Each option set (KEY=VALUE;KEY=VALUE; "" for the defaults) on the same
    seeds; win rates by seat and how games end, each set against the first."""
    bots = args.bots.split(",")
    sets = [parse_options([kv for kv in s.split(";") if kv]) for s in args.set]
    runs = []
    for options in sets:
        counts, secs = simulate(args.game, args.players, bots, args.games, args.seed, workers,
                                options or None, progress=bar if sys.stderr.isatty() else None)
        runs.append(summarise(args.game, args.players, bots, args.seed, counts, options, secs))
    base = runs[0]
    rows = []
    for r in runs:
        rows.append({"options": r["options"], "win_rate": r["win_rate"],
                     "win_rate_95": r["win_rate_95"], "endings": r["endings"],
                     "lengths": r["lengths"],
                     "win_rate_change": [difference(base["wins"][i], r["wins"][i], r["games"])
                                         for i in range(len(r["wins"]))]})
    return {"game": args.game, "players": args.players, "bots": bots, "seed": args.seed,
            "games": args.games, "sets": rows}


def _check(args, name):
    """The arguments' trouble, as a message, or None."""
    if args.games < 1:
        return "altar %s: --games must be at least 1" % name
    if args.jobs < 1:
        return "altar %s: --jobs must be at least 1" % name
    for b in args.bots.split(","):
        if b not in BOTS:
            return "altar %s: unknown bot %r (%s)" % (name, b, ", ".join(sorted(BOTS)))
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
    except Exception as e:     # a rule option the engine refuses, for one
        print("altar balance: %s" % e, file=sys.stderr)
        return 2
    for row in result["sets"]:
        print("%-40s %s" % (json.dumps(row["options"], sort_keys=True), "  ".join(
            "P%d %+.1f%% [%+.1f, %+.1f]" % (i + 1, 100 * d, 100 * lo, 100 * hi)
            for i, (d, (lo, hi)) in enumerate(row["win_rate_change"]))))
    if args.report:
        from altar_host import report
        report.write_balance(args.report, result)
    return 0


def main(args):
    options = parse_options(args.option or ())
    bots = args.bots.split(",")
    why = _check(args, "simulate")
    if why:
        print(why, file=sys.stderr)
        return 2
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    code = 0
    try:
        with Workers(args.jobs, args.cluster) as workers:
            counts, secs = simulate(args.game, args.players, bots, args.games, args.seed,
                                    workers, options or None, args.logs,
                                    bar if sys.stderr.isatty() else None, args.chunk)
    except Interrupted as stop:
        counts, secs, code = stop.counts, stop.seconds, 130
        sys.stderr.write("\naltar simulate: interrupted: %d of %d games finished, summarised "
                         "below\n" % (counts["games"], args.games))
    except (OSError, TimeoutError) as e:
        print("altar simulate: cannot reach the cluster: %s" % e, file=sys.stderr)
        return 2
    except Exception as e:     # a rule option the engine refuses, for one
        print("altar simulate: %s" % e, file=sys.stderr)
        return 2
    summary = summarise(args.game, args.players, bots, args.seed, counts, options, secs,
                        args.games)
    if args.report:
        from altar_host import report
        report.write(args.report, summary)
    print(json.dumps({k: summary[k] for k in ("game", "players", "bots", "games", "win_rate",
                                              "win_rate_95", "endings", "games_per_second")},
                     sort_keys=True))
    return code
