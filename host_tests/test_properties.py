"""Random play, checked after every action: the invariants of the rules,
rejection without change, undo equivalence and the log round trip. Whole
legal games and undo to any depth run for every game; random legal and
illegal actions for Sete Selos and Fantasmagória."""

import io

from hypothesis import event, given, settings, strategies as st, target

from altar import log
from altar.core import Rejected, Session
from altar import fantasmagoria as fa
from altar.rng import Rng
from altar_host.sim import drivers, card_table
from altar_host.sim.bots import FaRandomBot
from altar_host.sim.randomplay import DECK, fantasmagoria_game, ritos_game, sete_selos_game
from conftest import do_checked, header, snapshot

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)


def sete_selos_invariants(s):
    v = s.view()
    r = s.rules
    totals = [sum(e["cultists"]) for e in v["elders"]]
    assert all(t <= 3 for t in totals)
    assert 0 <= v["ritual"] <= 21
    assert 0 <= v["leader"] < r.seats
    for seat in range(r.seats):
        assert v["insanity"][seat] <= r.victory[seat][2]
    scoring = v["reason"] == "power" or (v["awaiting"] or {}).get("do") == "remove"
    if scoring:
        assert all(e["revealed"] for e in v["elders"])
        assert 21 - sum(v["insanity"]) <= sum(totals) <= 21
        return
    for e, t in zip(v["elders"], totals):
        assert e["revealed"] == (t == 3)  # revealed exactly at the third cultist
    pending = 0
    if (v["awaiting"] or {}).get("do") == "redirect":
        pending = 1
    if v["reason"] == "immediate":
        w = v["winners"][0]
        pending = int(v["insanity"][w] >= r.victory[w][2])  # won before the move
    assert sum(totals) == v["ritual"] - pending  # one cultist per ritual
    assert (v["status"] == "over") == (v["reason"] is not None)


def fantasmagoria_invariants(s):
    v = s.view()
    r = s.rules
    st = s.state
    n = r.seats
    assert 1 <= v["round"] <= 3
    assert (v["trump"] is None) == (v["leader"] is None)
    assert len(v["rounds"]) == (3 if v["status"] == "over" else v["round"] - 1)
    track = [0] * n
    for row in v["rounds"]:
        for seat in range(n):
            track[seat] += row[seat]
            if r.floor:
                track[seat] = max(track[seat], 0)
    assert v["scares"] == track
    if v["status"] == "over":
        w = v["winners"]
        assert len(w) == 1 and track[w[0]] == min(track)
        assert v["spirit"] == (track.count(min(track)) > 1)
        return
    assert v["winners"] == [] and not v["spirit"]
    if v["trump"] is None:
        assert v["possessed"] == [False] * n
    assert sum(st.ghosts) + st.trapped <= r.ghosts
    masks = list(st.curses) + [st.trapped_c]
    for i in range(len(masks)):
        for j in range(i):
            assert masks[i] & masks[j] == 0      # a cursed card is in one place
    assert 0 <= st.filipi < n or st.filipi == -1


def ritos_invariants(s):
    v = s.view()
    assert 0 <= v["turn"] < s.rules.seats
    assert v["final"] or max(v["scores"]) < 21
    assert (v["status"] == "over") == (v["hands"] is not None)
    if v["status"] == "over":
        best = max(zip(v["scores"], v["hands"]))
        assert v["winners"] == [i for i in range(s.rules.seats)
                                if (v["scores"][i], v["hands"][i]) == best]


INVARIANTS = {"sete-selos": sete_selos_invariants, "fantasmagoria": fantasmagoria_invariants,
              "ritos-ancestrais": ritos_invariants}


def invariants(s):
    INVARIANTS[s.view()["game"]](s)


def round_trip(s):
    buf = io.StringIO()
    log.write(s, buf)
    again = log.load(buf.getvalue().splitlines())
    assert snapshot(again.state) == snapshot(s.state)
    assert again.view() == s.view()


def step(s, a):
    """Try `a` (see do_checked); accepted, the invariants hold."""
    if not do_checked(s, a):
        return False
    invariants(s)
    return True


def legal_game(game, n, seed, k):
    """A whole random legal game; k varies the entry (quick per cent, deck)."""
    if game == "sete-selos":
        return sete_selos_game(n, seed, quick=k)
    if game == "fantasmagoria":
        return fantasmagoria_game(n, seed, quick=k, deck=bool(k % 2))
    return ritos_game(n, seed)


PLAYERS = st.sampled_from([("sete-selos", 2), ("sete-selos", 3), ("sete-selos", 4),
                           ("fantasmagoria", 3), ("fantasmagoria", 4),
                           ("ritos-ancestrais", 2), ("ritos-ancestrais", 3),
                           ("ritos-ancestrais", 4)])


def action(pick, s):
    """A random Sete Selos action, `pick(lo, hi)` drawing each choice: most
    are aimed at what the state waits for, so removals, redirects and the
    end by power are reached, not only refused."""
    st_ = s.state
    seats = s.rules.seats
    kind = pick(0, 9)
    if st_.wait == 2 and kind < 7:
        # the seat and count that are due (the engine's own suggestion), or not
        seat = st_.wseat if pick(0, 3) else pick(0, seats - 1)
        return {"do": "remove", "seat": seat, "elders": s.mod.suggest(st_, st_.wseat)}
    if st_.wait == 1 and kind < 7:
        return {"do": "redirect", "elder": pick(1, 7)}
    if kind <= 5:
        return {"do": "ritual", "winner": pick(0, seats - 1), "value": pick(1, 7)}
    if kind == 6:
        return {"do": "redirect", "elder": pick(1, 7)}
    if kind == 7:
        return {"do": "ritual", "cards": [[pick(0, 3), pick(1, 7)] for _ in range(seats)]}
    if kind == 8:
        return {"do": "remove", "seat": pick(0, seats - 1),
                "elders": [pick(1, 7) for _ in range(pick(1, 5))]}
    return {"do": "undo"}


def walk(n, pick, steps):
    """From a legal game's first `pick`ed actions (a real deal's state,
    mid-game), `steps` random actions; the invariants hold after each.
    Returns the accepted actions by verb and how the game ended."""
    h, legal = sete_selos_game(n, pick(0, 10 ** 6), quick=pick(0, 100))
    s = Session(h)
    for a in legal[:pick(0, len(legal) - 1)]:
        if a["do"] != "undo":
            assert step(s, a)
    took = {}
    for _ in range(steps):
        a = action(pick, s)
        if a["do"] == "undo":
            before = len(s.history)
            try:
                s.do(a)
            except Rejected:
                assert before == 0
            invariants(s)
        elif step(s, a):
            took[a["do"]] = took.get(a["do"], 0) + 1
    round_trip(s)
    return took, s.state.reason


@SETTINGS
@given(st.sampled_from([2, 3, 4]), st.data())
def test_random_actions_keep_the_invariants(n, data):
    took, _ = walk(n, lambda lo, hi: data.draw(st.integers(lo, hi)), data.draw(st.integers(1, 80)))
    for verb in took:
        event("accepted %s" % verb)
    target(float(took.get("remove", 0)), label="removals accepted")


def seeded(walk, players, steps, ended=bool):
    """`walk` over 150 seeded games (players cycling through `players`):
    the accepted actions by kind, added up, and how many games `ended`
    (a test of the walk's second value)."""
    import random
    total = {}
    count = 0
    for seed in range(150):
        took, end = walk(players[seed % len(players)], random.Random(seed).randint, steps)
        for k in took:
            total[k] = total.get(k, 0) + took[k]
        count += ended(end)
    return total, count


def test_random_actions_reach_the_end_of_a_game():
    """The random walk above, seeded: it must keep reaching removals,
    redirects and the end by power, or its invariants are not tried there."""
    total, power = seeded(walk, (2, 3, 4), 60, lambda reason: reason == "power")
    # measured: 1,978 rituals, 552 redirects, 327 removals, 57 ends by power
    assert total.get("remove", 0) >= 150 and total.get("redirect", 0) >= 250, total
    assert total.get("ritual", 0) >= 1000 and power >= 25, (total, power)


@SETTINGS
@given(PLAYERS, st.integers(0, 2 ** 31), st.integers(0, 100))
def test_whole_legal_games(game, seed, k):
    h, actions = legal_game(game[0], game[1], seed, k)
    s = Session(h)
    for a in actions:
        assert step(s, a)
    assert s.view()["status"] == "over"
    round_trip(s)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(PLAYERS, st.integers(0, 2 ** 31), st.integers(0, 100))
def test_undo_to_any_depth_is_exact(game, seed, k):
    h, actions = legal_game(game[0], game[1], seed, k)
    s = Session(h)
    snaps = [snapshot(s.state)]
    for a in actions:
        s.do(a)
        snaps.append(snapshot(s.state))
    for i in range(len(actions), 0, -1):
        assert snapshot(s.state) == snaps[i]
        s.do({"do": "undo"})
    assert snapshot(s.state) == snaps[0] == snapshot(Session(h).state)


# -- Fantasmagória: random actions, legal and illegal -----------------------------

FA_SUITS = ("gato", "vela", "bode", "boneca")
CURSES = ("gato-da-sorte", "candelabro", "filipi-bode", "belleanna")
FA_OPTIONS = (None, {"led_copo": "free"}, {"copo_follows": False}, {"track_floor": False},
              {"only_ghosts": "end"}, {"odd_card": "dealt"})


def fa_card(pick):
    k = pick(0, 9)
    if k == 0:
        return ["copo"]
    if k <= 2:
        return ["fantasma", pick(1, 12)]
    suit = pick(0, 3)
    c = [FA_SUITS[suit], pick(1, 10)]
    if pick(0, 9) == 0:
        # mostly the suit's own cursed card, now and then another's
        c.append(CURSES[suit if pick(0, 3) else (suit + 1) % 4])
    return c


def fa_random(pick, n):
    """A random Fantasmagória action, most of them refused."""
    kind = pick(0, 10)
    cards = lambda: [fa_card(pick) for _ in range(n)]   # noqa: E731
    if kind <= 4:
        return {"do": "trick", "cards": cards()}
    if kind == 5:
        return {"do": "sacrifice", "cards": cards()}
    if kind == 6:
        return {"do": "sacrifice", "trump": pick(1, 10), "leader": pick(0, n - 1)}
    if kind == 7:
        return {"do": "possess", "seat": pick(0, n - 1), "number": pick(1, 10)}
    if kind == 8:
        return {"do": "trick", "winner": pick(0, n - 1)}
    if kind == 9:
        hands = [[fa_card(pick) for _ in range(pick(0, 2))] for _ in range(n)]
        hands[pick(0, n - 1)] = []
        return {"do": "end-round", "leftover": hands}
    return {"do": "end-round", "piles": [
        {"ghosts": pick(0, 4), "candelabro": int(i == 0 and n == 4),
         "gato-da-sorte": int(i == 1), "belleanna": int(i == 2), "filipi-bode": int(i == 3)}
        for i in range(n)]}


class FaTable:
    """A real table beside the session: each round dealt from the deck, the
    hands and ghost piles kept as the accepted actions play them (and put
    back by an undo), so that the walk can aim at what the round waits for."""

    def __init__(self, s, rng):
        self.s = s
        self.rng = rng
        # The cards as the deck makes them, whether or not the header names it.
        self.rules = Session(dict(s.header, deck=DECK)).rules
        self.cards, self.ghosts = card_table.fa_deck(self.rules, DECK["numbers"])
        self.bots = [FaRandomBot(rng)] * s.rules.seats
        self.hands = self.piles = None
        self.round = 0
        self.saved = []

    def deal(self):
        """A new round's deal, when the state waits for its sacrifice."""
        st = self.s.state
        if st.leader < 0 and self.round != st.round:
            n = self.rules.seats
            cards = list(self.cards)
            self.rng.shuffle(cards)
            self.hands = card_table.fa_deal(self.rules, cards, self.rng)
            g = list(self.ghosts)
            self.rng.shuffle(g)
            self.piles = [g[i * 3:i * 3 + 3] for i in range(n)]
            self.round = st.round

    def aimed(self, pick):
        """(action, then): the play the table makes now, and what to do once
        the session took it (the table's hands and piles moved on)."""
        st = self.s.state
        hands = [list(h) for h in self.hands]
        piles = [list(p) for p in self.piles]
        if st.leader < 0:
            t = card_table.fa_sacrifice(st, hands, piles, self.bots, self.rng)
            if pick(0, 2) == 0:
                # entered quickly: the trump and leader the cards make
                low = min(range(1, len(t)), key=lambda i: (t[i] & 31, t[i]))
                t = (fa.SET_TRUMP, t[low] & 31, low - 1)
            return fa.unparse(t), lambda: self.move(hands, piles)
        if not card_table.fa_goes_on(st, hands):
            if st.quick or pick(0, 3) == 0:
                return fa.unparse(drivers.end_piles(st, hands)), lambda: None
            t = [fa.LEFTOVER]
            for h in hands:
                t += [len(h)] + h
            return fa.unparse(t), lambda: None
        trick = []
        card_table.fa_trick(st, hands, trick, self.bots)
        leader = st.leader
        before = st.possessed

        def then():
            card_table.fa_possess(st, leader, before, hands, piles, self.rng)
            self.move(hands, piles)
        return fa.unparse([fa.TRICK] + trick), then

    def move(self, hands, piles):
        self.hands = hands
        self.piles = piles

    def push(self):
        self.saved.append((self.hands, self.piles, self.round))

    def pop(self):
        self.hands, self.piles, self.round = self.saved.pop()


def fa_walk(n, pick, steps):
    """From a real deal, `steps` actions: most the play the table makes (its
    cards, or now and then the same play entered quickly), the rest random
    and mostly refused, or an undo; the invariants hold after each. Returns
    the accepted actions by kind and whether the game ended."""
    h = {"altar": 1, "game": "fantasmagoria", "players": ["P%d" % i for i in range(n)],
         "seed": pick(0, 99)}
    if pick(0, 3):
        h["deck"] = DECK        # the hands counted; without it cursed cards carry their names
    options = FA_OPTIONS[pick(0, len(FA_OPTIONS) - 1)]
    if options:
        h["options"] = options
    s = Session(h)
    tab = FaTable(s, Rng(pick(0, 10 ** 6)))
    took = {}
    for _ in range(steps):
        if s.state.over:
            break
        tab.deal()
        kind = pick(0, 9)
        then = None
        if kind < 7:
            a, then = tab.aimed(pick)
        elif kind < 9:
            a = fa_random(pick, n)
        else:
            if s.history:
                s.do({"do": "undo"})
                tab.pop()
            invariants(s)
            continue
        tab.push()
        if not step(s, a):
            tab.saved.pop()
            continue
        k = a["do"] + (" cards" if "cards" in a or "leftover" in a else "")
        took[k] = took.get(k, 0) + 1
        if then:
            then()
    round_trip(s)
    return took, s.state.over


@SETTINGS
@given(st.sampled_from([3, 4]), st.data())
def test_fantasmagoria_random_actions_keep_the_invariants(n, data):
    took, over = fa_walk(n, lambda lo, hi: data.draw(st.integers(lo, hi)),
                         data.draw(st.integers(1, 80)))
    for k in took:
        event("accepted %s" % k)
    target(float(took.get("sacrifice cards", 0) + took.get("end-round cards", 0)),
           label="carded sacrifices and leftovers accepted")


def test_fantasmagoria_random_actions_reach_the_end_of_a_game():
    """The walk above, seeded: it must keep playing carded sacrifices,
    tricks and leftovers, quick entries and whole games, or its invariants
    are not tried there."""
    total, ended = seeded(fa_walk, (3, 4), 80)
    # measured: 266 carded sacrifices and 172 quick, 4,741 carded tricks, 192
    # leftovers and 155 ends as piles, 88 quick possessions and 166 quick
    # tricks; 71 games ended
    assert total.get("sacrifice cards", 0) >= 180 and total.get("sacrifice", 0) >= 100, total
    assert total.get("trick cards", 0) >= 3000 and total.get("end-round cards", 0) >= 120, total
    assert total.get("end-round", 0) >= 100 and total.get("possess", 0) >= 50, total
    assert total.get("trick", 0) >= 100 and ended >= 45, (total, ended)
