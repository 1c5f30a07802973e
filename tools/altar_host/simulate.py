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
Results for a seed are the same whatever --jobs is: game i always uses
seed + i, and the summary adds the games in order.
"""

import json
import math
import multiprocessing
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

def _outcome(s):
    """(winners, how the game ended, its length, final scores or None)."""
    v = s.view()
    if v["game"] == "sete-selos":
        return v["winners"], v["reason"], v["ritual"], v["power"]
    how = "spirit" if v["spirit"] else "lowest"
    return v["winners"], how, len(s.history), v["scares"]


def run_chunk(job):
    """Games seed..seed+count of one kind: outcomes in order, logs if asked."""
    game, players, bots, seed, count, options, logs = job
    out = []
    for i in range(count):
        s = GAMES[game](players, seed + i, bots, options)
        out.append(_outcome(s))
        if logs:
            with open(os.path.join(logs, "%s-%d.jsonl" % (game, seed + i)), "w") as f:
                log.write(s, f)
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


def summarise(game, players, bots, seed, outcomes, options, seconds):
    seats = players + 1 if game == "sete-selos" and players == 2 else players
    wins = [0] * seats
    hows = {}
    lengths = {}
    scores = {}
    for winners, how, length, final in outcomes:
        for w in winners:
            wins[w] += 1
        hows[how] = hows.get(how, 0) + 1
        lengths[str(length)] = lengths.get(str(length), 0) + 1
        for x in final or ():
            scores[str(x)] = scores.get(str(x), 0) + 1
    from altar_host.report import finish
    return finish({
        "game": game, "players": players, "bots": bots, "seed": seed, "games": len(outcomes),
        "options": options or {}, "wins": wins, "endings": hows, "lengths": lengths,
        "scores": scores, "games_per_second": round(len(outcomes) / seconds, 1) if seconds else None,
    })


def simulate(game, players, bots, games, seed, jobs=1, options=None, logs=None, shard=None,
             progress=None):
    """Outcomes of games seed..seed+games-1 (or this shard's slice of them);
    progress(done, total) is called as chunks finish."""
    lo, hi = 0, games
    if shard:
        i, k = shard
        lo, hi = games * i // k, games * (i + 1) // k
    size = max(1, min(200, (hi - lo) // (jobs * 4) or 1))
    chunks = [(game, players, bots, seed + a, min(size, hi - a), options, logs)
              for a in range(lo, hi, size)]
    t = time.time()
    parts = []
    done = 0
    if jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        results = pool.imap(run_chunk, chunks)      # in order, as they finish
    else:
        pool = None
        results = (run_chunk(c) for c in chunks)
    try:
        for part in results:
            parts.append(part)
            done += len(part)
            if progress:
                progress(done, hi - lo)
    finally:
        if pool:
            pool.close()
            pool.join()
    outcomes = [o for p in parts for o in p]
    return outcomes, time.time() - t


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


def balance(args):
    """Each option set (KEY=VALUE;KEY=VALUE; "" for the defaults) on the same
    seeds; win rates by seat and how games end, each set against the first."""
    bots = args.bots.split(",")
    sets = [parse_options([kv for kv in s.split(";") if kv]) for s in args.set]
    runs = []
    for options in sets:
        out, secs = simulate(args.game, args.players, bots, args.games, args.seed, args.jobs,
                             options or None)
        runs.append(summarise(args.game, args.players, bots, args.seed, out, options, secs))
    base = runs[0]
    rows = []
    for r in runs:
        rows.append({"options": r["options"], "win_rate": r["win_rate"],
                     "win_rate_95": r["win_rate_95"], "endings": r["endings"],
                     "win_rate_change": [difference(base["wins"][i], r["wins"][i], r["games"])
                                         for i in range(len(r["wins"]))]})
    return {"game": args.game, "players": args.players, "bots": bots, "seed": args.seed,
            "games": args.games, "sets": rows}


def main_balance(args):
    try:
        result = balance(args)
    except Exception as e:     # a rule option the engine refuses, for one
        print("altar balance: %s" % e, file=sys.stderr)
        return 2
    for row in result["sets"]:
        print("%-40s %s" % (json.dumps(row["options"], sort_keys=True), "  ".join(
            "P%d %+.1f%% [%+.1f, %+.1f]" % (i + 1, 100 * d, 100 * lo, 100 * hi)
            for i, (d, (lo, hi)) in enumerate(row["win_rate_change"]))))
    if args.report:
        os.makedirs(args.report, exist_ok=True)
        with open(os.path.join(args.report, "balance.json"), "w") as f:
            f.write(json.dumps(result, sort_keys=True, indent=1) + "\n")
    return 0


def main(args):
    options = parse_options(args.option or ())
    bots = args.bots.split(",")
    for b in bots:
        if b not in BOTS:
            print("altar simulate: unknown bot %r (%s)" % (b, ", ".join(sorted(BOTS))),
                  file=sys.stderr)
            return 2
    shard = None
    if args.shard:
        i, _, k = args.shard.partition("/")
        shard = (int(i), int(k))
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    try:
        outcomes, secs = simulate(args.game, args.players, bots, args.games, args.seed,
                                  args.jobs, options or None, args.logs, shard,
                                  bar if sys.stderr.isatty() else None)
    except Exception as e:     # a rule option the engine refuses, for one
        print("altar simulate: %s" % e, file=sys.stderr)
        return 2
    summary = summarise(args.game, args.players, bots, args.seed, outcomes, options, secs)
    if args.report:
        from altar_host import report
        report.write(args.report, summary)
    print(json.dumps({k: summary[k] for k in ("game", "players", "bots", "games", "win_rate",
                                              "win_rate_95", "endings", "games_per_second")},
                     sort_keys=True))
    return 0
