"""The search bots: the state copy plays on exactly as a replay, the deals
respect everything a seat has seen and nothing more, a bot decides the same
whatever the hidden cards are, and a short seeded run finds search >
heuristic > random in both trick games."""

import copy

import pytest

from altar import fantasmagoria_cards as fc
from altar import sete_selos_cards as ssc
from altar import log
from altar.core import Session
from altar.rng import Rng
from altar_host.sim import drivers, search, card_table
from altar_host.sim import simulate as sim
from altar_host.sim.bots import FaHeuristicBot, RandomBot
from altar_host.sim.randomplay import DECK, fantasmagoria_game, sete_selos_game


def _fa_game(players, seed, bots):
    """A game of Fantasmagória played by `bots` on the example deck: its Session."""
    header = drivers.header("fantasmagoria", players, seed, deck=DECK)
    return drivers.fantasmagoria(header, Rng(seed), bots)


def _games():
    for p in (2, 3, 4):
        yield sete_selos_game(p, seed=p, quick=30)
    for p in (3, 4):
        yield fantasmagoria_game(p, seed=p, quick=30, undo=0)


@pytest.mark.parametrize("game", list(_games()), ids=lambda g: g[0]["game"])
def test_a_copy_of_the_state_plays_on_as_a_replay(game):
    header, actions = game
    whole = Session(header)
    for a in actions:
        whole.do(a)
    records = whole.history
    s = Session(header)
    st = s.state
    def fields(state):
        return dict((k, v) for k, v in vars(state).items() if k != "rules")
    for i in range(len(records)):
        before = copy.deepcopy(fields(st))
        c = search.clone(st)
        assert fields(c) == fields(st) and c.rules is st.rules
        for t in records[i:]:
            c.apply(t)
        assert fields(c) == fields(whole.state)      # the copy ends as the whole game
        assert fields(st) == before                  # and left the original alone
        st.apply(records[i])


class Keeper(RandomBot):
    """A random drafter in one seat that remembers its draft as the search
    bot does."""

    def __init__(self, rng):
        RandomBot.__init__(self, rng)
        self.draft = search.Draft()

    def keep(self, seat, cards, state):
        if len(cards) == 7:
            self.draft.start(state, seat)
        c = RandomBot.keep(self, seat, cards, state)
        self.draft.looks.append((list(cards), c))
        return c


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_draft_tells_exactly_who_may_hold_which_card(players):
    for seed in range(25):
        s = Session({"altar": 1, "game": "sete-selos", "players": ["p"] * players,
                     "first": seed % players})
        n = s.rules.seats
        me = seed % players
        bots = [RandomBot(Rng(seed * 8 + i)) for i in range(n)]
        bots[me] = spy = Keeper(Rng(seed))
        kept = card_table.draft(s.state, Rng(seed), bots)
        owner = {c: o for o in range(n) for c in kept[o]}
        groups = spy.draft.groups(card_table.deck(s.rules))
        assert sorted(c for cards, _ in groups for c in cards) == \
            sorted(c for o in range(n) if o != me for c in kept[o])
        for cards, seats in groups:
            assert sorted(owner[c] for c in cards) == sorted(seats)
            assert me not in seats
        if players == 4:      # the 4-player draft leaves 6 cards unseen
            assert len(groups[-1][0]) == 6


def _mid_series(seed, players=4):
    """A game stopped mid-series with a search bot at seat `me` to play:
    (session, true hands, trick so far, me, every seat's bot)."""
    s = Session({"altar": 1, "game": "sete-selos", "players": ["p"] * players, "first": 0})
    st = s.state
    n = s.rules.seats
    bots = [RandomBot(Rng(seed * 8 + i)) for i in range(n)]
    me = 1
    bots[me] = bot = search.SearchBot(Rng(seed))
    hands = card_table.draft(st, Rng(seed), bots)
    for _ in range(2 + seed % 4):           # some rituals of the first series
        seats = card_table.play_order(st, st.leader)
        trick = []
        s.play(card_table.ritual(st, hands, trick, bots))
        for b in bots:
            b.seen(seats, trick, st)
        if st.wait or st.over or st.ritual % 7 == 0:
            return None
    trick = []
    while st.after(st.leader, len(trick)) != me:       # the others up to `me`
        seat = st.after(st.leader, len(trick))
        c = ssc.legal(st, seat, hands[seat], trick)[0]
        hands[seat].remove(c)
        trick.append(c)
    bot.hand = hands[me]
    return s, hands, trick, me, bots


def test_the_sete_selos_deals_hold_only_what_the_seat_could_not_see():
    checked = 0
    for seed in range(30):
        case = _mid_series(seed)
        if case is None:
            continue
        s, hands, trick, me, bots = case
        bot = bots[me]
        st = s.state
        groups = bot.draft.groups(card_table.deck(s.rules))
        lead = trick[0][0] if trick else None
        for _ in range(5):
            dealt = bot.deal(me, st, trick, groups)
            for o in range(4):
                if o == me:
                    continue
                assert len(dealt[o]) == len(hands[o])
                assert not set(dealt[o]) & (set(hands[me]) | set(trick) | set(bot.owner))
                assert all(not st.void[o] >> c[0] & 1 for c in dealt[o])
                if any(st.after(st.leader, i) == o and trick[i][0] != lead for i in range(len(trick))):
                    assert all(c[0] != lead for c in dealt[o])
                for c in dealt[o]:      # only where the draft says o may hold it
                    assert any(c in cards and o in seats for cards, seats in groups)
            assert sorted(c for o in range(4) if o != me for c in dealt[o]) == \
                sorted(c for o in range(4) if o != me for c in hands[o])
            checked += 1
    assert checked >= 50


def test_a_sete_selos_bot_decides_the_same_whatever_the_hidden_cards():
    """Two worlds that differ only in cards the bot cannot see (two other
    seats swap cards of one sign): the same state of mind, the same card."""
    tried = 0
    for seed in range(40):
        case = _mid_series(seed)
        if case is None:
            continue
        s, hands, trick, me, bots = case
        bot = bots[me]
        others = [o for o in range(4) if o != me]
        a, b = others[0], others[-1]
        pair = [(x, y) for x in hands[a] for y in hands[b] if x[0] == y[0]]
        if not pair:
            continue
        twin = copy.deepcopy(bot)
        legal = ssc.legal(s.state, me, hands[me], trick)
        for o in others:
            bots[o].hand = hands[o]
        mine = bot.play(me, legal, list(trick), s.state)
        x, y = pair[0]
        for o in others:                 # the other world: the same, x and y swapped
            bots[o].hand = [y if c == x else x if c == y else c for c in hands[o]]
        assert twin.play(me, legal, list(trick), s.state) == mine
        tried += 1
    assert tried >= 10


class FaSpy(search.FaSearchBot):
    """A Fantasmagória search bot whose test sees the table: the others' bots
    hold their live hands (`hand`), which it checks the deals against."""
    checked = 0
    table_bots = None

    def play(self, seat, legal, trick, state):
        n = state.rules.seats
        truth = [b.hand for b in FaSpy.table_bots]
        played = set(self.owner) | set(trick)
        ritual, ghosts = card_table.fa_deck(state.rules, (state.rules.lo, state.rules.hi))
        hidden = set(ritual + ghosts) - played - set(self.hand)
        for _ in range(3):
            got = self.deal(seat, state, trick)
            assert got is not None
            hands, piles = got
            assert len(piles) == n - bin(state.possessed).count("1")
            assert all(len(p) == 4 and sum(c >> 5 == 4 for c in p) == 3 for p in piles)
            dealt = [c for o in range(n) if o != seat for c in hands[o]]
            placed = dealt + [c for p in piles for c in p]
            assert len(set(placed)) == len(placed) and set(placed) <= hidden
            # all of them, but the ritual card set aside (option odd_card)
            aside = hidden - set(placed)
            assert len(aside) == state.rules.aside and all(c >> 5 != 4 for c in aside)
            for o in range(n):
                if o != seat:
                    assert len(hands[o]) == len(truth[o])
                    for c in hands[o]:      # no suit it lacks, but its pile's sacrificed card
                        v = state.void[o * 6 + (c >> 5 & 7)]
                        assert not v or v & fc.BEFORE and state.seen[c & 0xFF] & 2
            FaSpy.checked += 1
        return search.FaSearchBot.play(self, seat, legal, trick, state)


@pytest.mark.parametrize("players", [3, 4])
def test_the_fantasmagoria_deals_hold_only_what_the_seat_could_not_see(players):
    FaSpy.checked = 0
    old = search.FaSearchBot.deals
    search.FaSearchBot.deals = 1
    try:
        for seed in range(3):
            bots = [FaHeuristicBot(Rng(seed * 8 + i)) for i in range(players)]
            bots[seed % players] = FaSpy(Rng(seed))
            FaSpy.table_bots = bots
            assert _fa_game(players, seed, bots).view()["status"] == "over"
    finally:
        search.FaSearchBot.deals = old
    assert FaSpy.checked >= 60


def test_a_fantasmagoria_bot_decides_the_same_whatever_the_hidden_cards():
    """At each of a search bot's decisions, a twin with the same memory and
    generator, asked while the other seats hold shuffled hands of the same
    sizes and suits they may hold, plays the same card."""
    class Twin(search.FaSearchBot):
        same = 0

        def play(self, seat, legal, trick, state):
            twin = copy.deepcopy(self)
            saved = [list(b.hand) for b in bots]
            others = [b for i, b in enumerate(bots) if i != seat]
            pool = [c for b in others for c in b.hand]
            Rng(len(pool)).shuffle(pool)
            for b in others:            # other cards in the other hands
                k = len(b.hand)
                b.hand[:] = pool[:k]
                del pool[:k]
            theirs = search.FaSearchBot.play(twin, seat, legal, trick, state)
            for b, h in zip(bots, saved):
                b.hand[:] = h
            mine = search.FaSearchBot.play(self, seat, legal, trick, state)
            assert mine == theirs
            Twin.same += 1
            return mine
    old = search.FaSearchBot.deals
    search.FaSearchBot.deals = 2
    try:
        bots = [FaHeuristicBot(Rng(i)) for i in range(4)]
        bots[2] = Twin(Rng(9))
        _fa_game(4, 5, bots)
    finally:
        search.FaSearchBot.deals = old
    assert Twin.same >= 10


def test_the_best_card_is_the_best_total_over_common_deals():
    deals = iter([{"a": 0.2, "b": 0.9}, {"a": 0.7, "b": 0.1}, {"a": 0.4, "b": 0.4}])
    assert search.best(0, ["a", "b"], 3, lambda: next(deals),
                       lambda d, c: [d[c]]) == "b"        # 1.4 against 1.3
    assert search.best(0, ["a", "b"], 1, lambda: None, lambda d, c: [0]) is None


def test_the_search_bots_play_whole_legal_games(tmp_path):
    old = search.SearchBot.deals, search.FaSearchBot.deals
    search.SearchBot.deals = search.FaSearchBot.deals = 2
    try:
        for game, players, bots in (("sete-selos", 3, ["search", "heuristic", "random"]),
                                    ("sete-selos", 2, ["search"]),
                                    ("fantasmagoria", 3, ["search", "heuristic"])):
            out, _ = sim.simulate(game, players, bots, 3, 2, logs=str(tmp_path))
            again = sim.empty(game, players)
            for i in range(3):
                with open(tmp_path / ("%s-%d.jsonl" % (game, 2 + i)), "rb") as f:
                    sim.tally(again, log.load(f))
            assert again == out
    finally:
        search.SearchBot.deals, search.FaSearchBot.deals = old


@pytest.mark.parametrize("game,games", [("sete-selos", 200), ("fantasmagoria", 200)])
def test_search_beats_heuristic_beats_random(game, games):
    """Seat 0 is random, heuristic or search against three heuristic bots, on
    the same seeds: the three win rates' 95% intervals do not overlap, in
    that order (the full figures: tools/bench/bench_simulate.py)."""
    rows = []
    for bot in ("random", "heuristic", "search"):
        counts, _ = sim.simulate(game, 4, [bot, "heuristic", "heuristic", "heuristic"], games, 5)
        rows.append(sim.wilson(counts["wins"][0], games))
    (_, r_hi), (h_lo, h_hi), (s_lo, _) = rows
    assert r_hi < h_lo and h_hi < s_lo, rows
