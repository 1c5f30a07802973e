"""Fantasmagória (docs/rules.md and docs/session-log.md)."""

import pytest

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar.core import Rejected, Session
from altar_host.sim import card_table
from altar_host.sim.randomplay import DECK, fantasmagoria_game
from conftest import do_checked, rejects


def game(n=4, **kw):
    h = {"altar": 1, "game": "fantasmagoria", "players": ["P%d" % i for i in range(n)]}
    h.update(kw)
    return Session(h)


def C(suit, number=None, name=None):
    if suit == "copo":
        return ["copo"]
    return [suit, number] if name is None else [suit, number, name]


def G(n):
    return ["fantasma", n]


COPO = ["copo"]


def sac(*cards):
    return {"do": "sacrifice", "cards": list(cards)}


def trick(*cards):
    return {"do": "trick", "cards": list(cards)}


def leftover(*hands):
    return {"do": "end-round", "leftover": list(hands)}


def pile(ghosts=0, **cursed):
    p = {"ghosts": ghosts}
    for k, v in cursed.items():
        p[k.replace("_", "-")] = v
    return p


def started(n=4, trump=3, leader=0, **kw):
    """A game whose first round's sacrifice is done (quick entry)."""
    s = game(n, **kw)
    s.do({"do": "sacrifice", "trump": trump, "leader": leader})
    return s


def possess_all(s):
    """Quick entry: every seat possessed, one trick each, the trump and the
    leader as they were."""
    n = s.rules.seats
    for _ in range(n):
        seat = (s.view()["leader"] + 1) % n
        s.do({"do": "possess", "seat": seat, "number": s.view()["trump"]})
        s.do({"do": "trick", "winner": seat})


def haunted(**kw):
    """Referee entry: every seat possessed in two tricks; seat 0 leads next,
    the trump is 1. Played: gato 3 4 5 6, bode 1 9, vela 1, boneca 2."""
    s = started(trump=2, leader=0, **kw)
    s.do(trick(C("gato", 5), C("bode", 9), C("vela", 1), C("boneca", 2)))   # 1, 2, 3; 9 wins
    s.do(trick(C("gato", 3), C("gato", 4), C("gato", 6), C("bode", 1)))     # seat 0; 1 wins
    v = s.view()
    assert all(v["possessed"]) and (v["leader"], v["trump"]) == (0, 1)
    return s


# -- 1, 2: cards, sacrifice, 3-player removals ---------------------------------------

def test_sacrifice_sets_trump_and_first_leader():
    s = game(4)
    v = s.view()
    assert (v["trump"], v["leader"], v["round"]) == (None, None, 1)
    s.do(sac(C("gato", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))
    assert (s.view()["trump"], s.view()["leader"]) == (3, 1)


@pytest.mark.parametrize("cards,leader", [
    ([C("boneca", 2), C("bode", 2), C("vela", 2), C("gato", 2)], 3),
    ([C("boneca", 2), C("bode", 2), C("vela", 2), C("gato", 4)], 2),
    ([C("boneca", 2), C("bode", 2), C("vela", 6), C("gato", 4)], 1),
    ([C("boneca", 2), C("bode", 5), C("vela", 6), C("gato", 4)], 0),
])
def test_equal_sacrifices_gato_vela_bode_boneca(cards, leader):
    s = game(4)
    s.do(sac(*cards))
    assert (s.view()["trump"], s.view()["leader"]) == (min(c[1] for c in cards), leader)


def test_cursed_ghost_and_copo_cannot_be_sacrificed():
    plain = [C("gato", 5), C("vela", 3), C("bode", 8)]
    for bad, frag in ((C("bode", 7), "cursed cards cannot be sacrificed"),
                      (C("boneca", 5, "belleanna"), "cursed cards cannot be sacrificed"),
                      (G(1), "must be a ritual card"),
                      (COPO, "must be a ritual card")):
        rejects(game(4), sac(*plain + [bad]), frag)
    # With a deck the cursed cards are known by number.
    rejects(game(4, deck=DECK), sac(*plain + [C("boneca", 2)]), "cursed cards cannot")
    rejects(game(4), sac(C("gato", 5), C("gato", 5), C("bode", 8), C("vela", 1)), "appears twice")


def test_quick_sacrifice_and_the_order_of_a_round():
    s = game(4)
    rejects(s, {"do": "trick", "winner": 1}, "round 1 starts with the sacrifice")
    rejects(s, leftover([], [], [], []), "starts with the sacrifice")
    rejects(s, {"do": "sacrifice", "trump": 21, "leader": 0}, "trump must be 1..20")
    s.do({"do": "sacrifice", "trump": 4, "leader": 2})
    assert (s.view()["trump"], s.view()["leader"]) == (4, 2)
    rejects(s, {"do": "sacrifice", "trump": 4, "leader": 2}, "sacrifice is done")
    rejects(s, sac(C("gato", 5), C("vela", 3), C("bode", 8), C("boneca", 9)), "sacrifice is done")


def test_three_players_leave_vela_and_ghosts_9_to_11_out():
    s = game(3)
    rejects(s, sac(C("gato", 5), C("vela", 3), C("bode", 8)), "vela cards are out")
    s.do(sac(C("gato", 5), C("boneca", 3), C("bode", 8)))
    possess_all(s)
    for g in (9, 10, 11):
        rejects(s, trick(G(g), G(1), G(2)), "ghosts 9, 10 and 11 are out")
    s.do(trick(G(12), G(1), G(8)))
    assert s.view()["leader"] == 1 and s.state.ghosts[1] == 3
    rejects(s, {"do": "end-round", "piles": [pile(candelabro=1), pile(), pile()]},
            "candelabro is out of the game with 3 players")
    rejects(s, {"do": "end-round", "piles": [pile(5), pile(3), pile(2)]},
            "the piles hold 10 ghosts; the game has 9")
    with pytest.raises(Rejected):
        game(2)
    with pytest.raises(Rejected):
        game(5)


# -- 3, 4: lead suit, following, possession, the planchette ------------------------------

def test_first_card_sets_the_lead_suit_and_the_highest_wins():
    s = started(trump=20, leader=1)
    s.do(trick(C("bode", 3), C("bode", 9), C("bode", 12), C("bode", 1)))
    assert s.view()["leader"] == 3 and not any(s.view()["possessed"])


def test_a_led_copo_lets_the_next_card_set_the_lead_suit():
    s = started(trump=20, leader=0)
    s.do(trick(COPO, C("gato", 4), C("gato", 12), C("bode", 12)))
    v = s.view()
    # gato is led: seat 3 did not follow, the planchette moves to 12 and the
    # earlier gato 12 wins.
    assert v["possessed"] == [False, False, False, True] and v["trump"] == 12
    assert v["leader"] == 2


def test_option_free_copo_leaves_the_trick_without_a_lead_suit():
    s = started(trump=20, leader=0, options={"led_copo": "free"})
    s.do(trick(COPO, C("gato", 4), C("bode", 12), C("boneca", 9)))
    v = s.view()
    assert v["leader"] == 2 and not any(v["possessed"]) and v["trump"] == 20
    with pytest.raises(Rejected) as e:
        game(4, options={"led_copo": "first"})
    assert "led_copo" in str(e.value)


def test_possession_moves_the_planchette_at_once_for_this_trick():
    # The manual's tip: possessed, play off suit the number of a card already
    # played; the planchette moves to it and the earlier card wins.
    s = started(trump=20, leader=0)
    s.do(trick(C("gato", 5), C("gato", 8), C("bode", 5), C("gato", 2)))
    v = s.view()
    assert v["trump"] == 5 and v["possessed"] == [False, False, True, False]
    assert v["leader"] == 0
    # Without an earlier 5, the possessing card itself shows the trump.
    s.do(trick(C("boneca", 3), C("boneca", 9), C("boneca", 1), C("vela", 7)))
    assert (s.view()["trump"], s.view()["leader"]) == (7, 3)


def test_only_the_first_possession_of_a_trick_moves_the_planchette():
    s = started(trump=20, leader=0)
    s.do(trick(C("gato", 5), C("bode", 9), C("vela", 2), C("gato", 10)))
    v = s.view()
    assert v["possessed"] == [False, True, True, False] and v["trump"] == 9
    assert v["leader"] == 1


def test_a_possessed_seat_is_not_possessed_again_and_moves_nothing():
    s = started(trump=20, leader=0)
    s.do(trick(C("gato", 4), C("bode", 4), C("gato", 2), C("gato", 10)))   # seat 1; gato 4 wins
    s.do(trick(C("boneca", 5), C("vela", 9), C("boneca", 2), C("boneca", 10)))
    v = s.view()
    assert v["possessed"] == [False, True, False, False] and v["trump"] == 4
    assert v["leader"] == 3   # boneca 10: seat 1's vela 9 moved nothing
    rejects(s, {"do": "possess", "seat": 1, "number": 3}, "P2 (seat 1) is already possessed")


def test_possession_is_once_per_round():
    s = started(trump=20, leader=0)
    s.do(trick(C("gato", 5), C("bode", 9), C("gato", 2), C("gato", 10)))
    s.do(leftover([], [], [], []))
    v = s.view()
    assert v["round"] == 2 and v["possessed"] == [False] * 4 and v["trump"] is None
    s.do({"do": "sacrifice", "trump": 20, "leader": 0})
    s.do(trick(C("gato", 5), C("bode", 9), C("gato", 2), C("gato", 10)))
    assert s.view()["possessed"] == [False, True, False, False]


def test_the_copo_is_not_failing_to_follow_by_default():
    s = started(trump=20, leader=0)
    s.do(trick(C("gato", 5), COPO, C("gato", 2), C("gato", 10)))
    assert not any(s.view()["possessed"])


def test_option_copo_possesses_without_moving_the_planchette():
    s = started(trump=20, leader=0, options={"copo_follows": False})
    s.do(trick(C("gato", 5), COPO, C("bode", 2), C("gato", 10)))
    v = s.view()
    # The Copo possessed first: it has no number, and the second possession
    # of the trick does not move the planchette either.
    assert v["possessed"] == [False, True, True, False] and v["trump"] == 20
    assert v["leader"] == 3


def test_ghosts_lead_only_when_every_seat_is_possessed():
    s = started(trump=1, leader=0, options={"only_ghosts": "end"})
    s.do(trick(C("gato", 5), C("bode", 9), C("vela", 2), C("boneca", 2)))   # 1, 2, 3; 9 wins
    rejects(s, trick(G(1), C("bode", 3), C("bode", 4), C("bode", 6)), "a ghost may lead only")
    rejects(s, trick(C("gato", 3), C("gato", 4), C("gato", 6), G(2)), "P1 (seat 0) is not possessed")
    s.do(trick(C("bode", 3), C("bode", 4), C("bode", 6), C("boneca", 1)))    # seat 0 too
    assert all(s.view()["possessed"]) and s.view()["leader"] == 0    # boneca 1: the trump
    s.do(trick(G(5), G(1), G(2), G(3)))
    assert s.view()["leader"] == 1            # the ghost 1 shows the trump


def test_a_possessed_seat_holds_its_piles_three_ghosts_until_it_plays_them():
    s = started(trump=1, leader=0)
    s.do(trick(C("gato", 5), C("bode", 9), C("vela", 2), C("boneca", 2)))   # 1, 2, 3
    s.do(trick(C("bode", 3), C("bode", 4), C("bode", 6), C("boneca", 1)))    # seat 0 too
    rejects(s, trick(G(5), G(1), C("vela", 8), G(3)),
            "P3 (seat 2) took a ghost pile and has shown 0 of its 3 ghosts, so it must follow")
    s.do(trick(G(5), G(1), G(2), G(3)))
    s.do(trick(G(4), G(6), G(7), G(8)))
    assert list(s.state.shown) == [2, 2, 2, 2]
    rejects(s, leftover([G(10)], [G(11), G(12), G(9)], [], []),
            "P2 (seat 1) took one ghost pile, so it holds 3 ghosts, not 4")
    s.do(leftover([G(10)], [G(11)], [G(12)], []))


def test_a_seat_holds_ghosts_and_sacrificed_cards_only_once_possessed():
    s = game(4)
    s.do(sac(C("gato", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))   # seat 1 leads
    rejects(s, trick(C("gato", 2), C("bode", 8), C("gato", 4), C("gato", 6)),
            'card ["bode", 8] was sacrificed: only a possessed seat')
    s.do(trick(C("gato", 2), C("bode", 3), C("gato", 4), C("gato", 6)))   # seat 2 possessed
    s.do(trick(C("bode", 8), C("bode", 1), C("bode", 2), C("bode", 4)))   # seat 2 leads it
    assert s.state.seen[fc.card(s.rules, C("bode", 8))] == 3


# -- 5: the winner of a trick ----------------------------------------------------------

def test_the_earliest_card_with_the_trump_number_wins_any_suit_ghosts_too():
    assert fc.trick_winner([2 << 5 | 9, 0 << 5 | 3, 3 << 5 | 3, 4 << 5 | 3], 3, 2) == 1
    assert fc.trick_winner([4 << 5 | 3, 0 << 5 | 3], 3, 4) == 0
    assert fc.trick_winner([2 << 5 | 9, 2 << 5 | 11, fa.COPO, 0 << 5 | 12], 3, 2) == 1
    assert fc.trick_winner([fa.COPO, 0 << 5 | 4, 1 << 5 | 12], 3, -1) == 2
    s = haunted()
    s.do(trick(C("vela", 8), G(1), C("vela", 9), C("vela", 10)))
    assert s.view()["leader"] == 1


def test_winner_takes_the_cards_and_leads():
    s = started(trump=6, leader=2)
    s.do(trick(C("gato", 5, "gato-da-sorte"), C("gato", 6), C("gato", 1), C("gato", 9)))
    assert s.view()["leader"] == 3   # gato 6 shows the trump
    assert s.state.curses[3] == 1


# -- 6: the Copo ----------------------------------------------------------------------

def test_the_copo_traps_what_scares_for_the_next_trick_winner():
    s = haunted()
    s.do(trick(C("vela", 9), C("vela", 4, "candelabro"), COPO, G(2)))
    # vela 9 would win: seat 0 leads next, the Candelabro and the ghost wait
    assert s.view()["leader"] == 0
    assert (s.state.ghosts[0], s.state.curses[0]) == (0, 0)
    assert (s.state.trapped, s.state.trapped_c) == (1, 1 << 1)
    s.do(trick(C("bode", 3), C("bode", 10), C("bode", 4), C("bode", 2)))
    assert s.view()["leader"] == 1
    assert (s.state.ghosts[1], s.state.curses[1]) == (1, 1 << 1)
    assert (s.state.trapped, s.state.trapped_c) == (0, 0)


@pytest.mark.parametrize("third,row", [(COPO, [0, 0, 0, 0]), (C("gato", 1), [-3, 0, 0, 0])])
def test_a_copo_in_the_last_trick_traps_for_nobody(third, row):
    s = started(trump=20, leader=0)
    s.do(trick(C("gato", 9), C("gato", 4, "gato-da-sorte"), third, C("gato", 2)))
    s.do(leftover([], [], [], []))
    assert s.view()["rounds"] == [row]


def test_filipi_bode_trapped_on_the_copo_has_no_effect_by_default():
    def play(**kw):
        s = haunted(**kw)
        s.do(trick(C("bode", 7), G(2), COPO, C("bode", 2)))   # Filipi Bode would win
        assert s.view()["leader"] == 0
        s.do(leftover([G(3), G(4)], [G(5)], [G(6)], []))
        return s.view()["rounds"]
    assert play() == [[2, 1, 1, 0]]
    assert play(options={"copo_traps_filipi": False}) == [[4, 1, 1, 0]]


# -- 7, 8: end of round, scares -----------------------------------------------------

def test_scares_of_every_cursed_card():
    assert fa.scares(3, 0, False) == 3
    assert fa.scares(0, 1 << 1, False) == 2      # Candelabro
    assert fa.scares(0, 1 << 0, False) == -3     # Gato da sorte
    assert fa.scares(0, 1 << 3, False) == 4      # BelleAnna
    assert fa.scares(2, 0b1011, False) == 5
    assert fa.scares(6, 0, True) == 12           # Filipi Bode: ghosts count 2
    assert fa.scares(6, 0b1011, True) == 15
    assert fa.scares(7, 0b1011, True) == 0       # 7 or more: nothing at all
    assert fa.scares(0, 0, True) == 0


def test_piles_score_each_seat():
    s = started()
    s.do({"do": "end-round", "piles": [
        pile(2, candelabro=1), pile(1, gato_da_sorte=1), pile(3, belleanna=1, filipi_bode=1),
        pile(6)]})
    assert s.view()["rounds"] == [[4, -2, 10, 6]]
    assert s.view()["scares"] == [4, 0, 10, 6]


def test_filipi_bode_won_with_counts_ghosts_double_or_nothing():
    s = started(trump=20, leader=0)
    s.do(trick(C("bode", 7), C("bode", 1), C("bode", 2), C("bode", 3)))
    assert s.state.filipi == 0
    s.do(trick(C("vela", 4, "candelabro"), C("vela", 1), C("vela", 2), C("vela", 3)))
    s.do(leftover([], [], [], []))
    assert s.view()["rounds"] == [[2, 0, 0, 0]]
    s = started(trump=20, leader=0)
    s.do(trick(C("bode", 9), C("bode", 7), C("bode", 2), C("bode", 3)))   # not won with it
    assert s.state.filipi == -1
    s.do(leftover([], [], [], []))
    assert s.view()["rounds"] == [[0, 0, 0, 0]]


def test_leftover_cards_go_to_their_holders_pile():
    s = haunted()
    s.do(leftover([G(1), G(2)], [C("boneca", 12, "belleanna")], [C("bode", 7)], []))
    assert s.view()["rounds"] == [[2, 4, 0, 0]]   # Filipi Bode in hand: not won with


def test_leftover_is_checked_against_the_round():
    s = game(4)
    s.do(sac(C("bode", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))   # no gato sacrificed
    s.do(trick(C("gato", 5), C("bode", 9), C("gato", 2), C("gato", 10)))   # seat 2 lacks gato
    rejects(s, leftover([C("gato", 1)], [C("gato", 3)], [C("boneca", 4)], [C("gato", 6)]),
            "a round ends when a seat has no card left")
    rejects(s, leftover([C("gato", 5)], [], [], []), 'card ["gato", 5] was already played')
    rejects(s, leftover([G(1)], [], [], []), "P1 (seat 0) is not possessed")
    rejects(s, leftover([], [], [C("gato", 3)], []), "P3 (seat 2) showed in trick 1 that it holds no gato")
    rejects(s, leftover([C("gato", 3)], [C("gato", 3)], [], []), "appears twice")
    rejects(s, leftover([], [], [], [], []), "leftover must have 4 entries")
    s.do({"do": "trick", "winner": 0})
    rejects(s, leftover([], [], [], []), "a trick of round 1 was entered as its result: end the round with piles")


def test_piles_are_checked():
    s = started()
    rejects(s, {"do": "end-round", "piles": [pile(belleanna=1), pile(belleanna=1), pile(), pile()]},
            "two piles hold belleanna")
    rejects(s, {"do": "end-round", "piles": [pile(13), pile(), pile(), pile()]},
            "ghosts must be 0..12")
    rejects(s, {"do": "end-round", "piles": [pile(candelabro=2), pile(), pile(), pile()]},
            "candelabro must be 0..1")
    rejects(s, {"do": "end-round", "piles": [{"ghost": 1}, pile(), pile(), pile()]},
            'unknown key "ghost"')
    rejects(s, {"do": "end-round", "piles": [1, pile(), pile(), pile()]}, "a pile must be an object")


# -- 9, 10: track, three rounds, the spirit -------------------------------------------

def finish(s, rows):
    """Play the remaining rounds of s with the given piles rows."""
    for row in rows:
        if s.view()["trump"] is None:
            s.do({"do": "sacrifice", "trump": 1, "leader": 0})
        s.do({"do": "end-round", "piles": row})
    return s.view()


def test_the_track_never_goes_below_0_by_default():
    luck = [pile(gato_da_sorte=1), pile(2), pile(), pile()]
    v = finish(game(4), [luck, [pile(1), pile(), pile(), pile()], luck])
    assert v["rounds"][0] == [-3, 2, 0, 0] and v["scares"] == [0, 4, 0, 0]
    v = finish(game(4, options={"track_floor": False}),
               [luck, [pile(1), pile(), pile(), pile()], luck])
    assert v["scares"] == [-5, 4, 0, 0] and v["winners"] == [0] and not v["spirit"]


def test_three_rounds_lowest_wins():
    s = game(4)
    v = finish(s, [[pile(1), pile(2), pile(3), pile(4)]] * 2)
    assert v["round"] == 3 and v["status"] == "playing"
    v = finish(s, [[pile(1), pile(2), pile(3), pile(0)]])
    assert v["status"] == "over" and v["scares"] == [3, 6, 9, 8] and v["winners"] == [0]
    assert not v["spirit"] and v["round"] == 3
    rejects(s, {"do": "sacrifice", "trump": 1, "leader": 0}, "the game is over")


def test_the_spirit_breaks_a_tie_from_the_seed():
    rows = [[pile(1), pile(1), pile(1), pile(3)]] * 3
    chosen = set()
    for seed in range(20):
        v = finish(game(4, seed=seed), rows)
        assert v["spirit"] and len(v["winners"]) == 1 and v["winners"][0] in (0, 1, 2)
        assert finish(game(4, seed=seed), rows)["winners"] == v["winners"]   # replayable
        chosen.add(v["winners"][0])
    assert chosen == {0, 1, 2}


# -- quick entry ------------------------------------------------------------------------

def test_quick_possession_and_trick():
    s = started(trump=20, leader=0)
    s.do({"do": "possess", "seat": 2, "number": 6})
    s.do({"do": "possess", "seat": 3, "number": 9})
    v = s.view()
    assert v["trump"] == 6 and v["possessed"] == [False, False, True, True]
    rejects(s, trick(C("gato", 1), C("gato", 2), C("gato", 3), C("gato", 4)),
            "close the trick with its winner")
    rejects(s, {"do": "end-round", "piles": [pile()] * 4}, "close the trick with its winner")
    s.do({"do": "trick", "winner": 2})
    s.do({"do": "possess", "seat": 0, "number": 4})   # a new trick: it moves again
    assert (s.view()["trump"], s.view()["leader"]) == (4, 2)
    rejects(s, {"do": "possess", "seat": 1, "number": None}, "only with option copo_follows false")
    s = started(trump=20, leader=0, options={"copo_follows": False})
    s.do({"do": "possess", "seat": 1, "number": None})
    s.do({"do": "possess", "seat": 2, "number": 5})
    assert s.view()["trump"] == 20


# -- 4 (deck): the deck as data ----------------------------------------------------------

def test_with_a_deck_cards_outside_it_are_refused_and_cursed_known_by_number():
    s = started(deck=DECK, trump=10)
    rejects(s, trick(C("gato", 11), C("gato", 2), C("gato", 3), C("gato", 4)),
            "a card's number must be 1..10, not 11")
    rejects(s, trick(C("gato", 3, "gato-da-sorte"), C("gato", 2), C("gato", 1), C("gato", 4)),
            'gato-da-sorte is ["gato", 9]')
    s.do(trick(C("gato", 9), C("gato", 2), C("gato", 1), C("gato", 4)))
    assert s.state.curses[0] == 1
    rejects(s, {"do": "sacrifice", "trump": 10, "leader": 0}, "sacrifice is done")
    rejects(game(4, deck=DECK), {"do": "sacrifice", "trump": 11, "leader": 0}, "trump must be 1..10")


def test_without_a_deck_numbers_run_to_20_and_cursed_cards_go_by_name():
    s = started(trump=20)
    rejects(s, trick(C("gato", 21), C("gato", 2), C("gato", 3), C("gato", 4)), "must be 1..20")
    rejects(s, trick(C("gato", 3, "candelabro"), C("gato", 2), C("gato", 1), C("gato", 4)),
            "candelabro is a vela card")
    rejects(s, trick(C("bode", 8, "filipi-bode"), C("bode", 2), C("bode", 1), C("bode", 4)),
            'filipi-bode is ["bode", 7]')
    rejects(s, trick(C("gato", 3, "sorte"), C("gato", 2), C("gato", 1), C("gato", 4)),
            'unknown cursed card "sorte"')
    rejects(s, trick(C("vela", 3, "candelabro"), C("vela", 5, "candelabro"), C("vela", 1),
                     C("vela", 4)), "two cards are named candelabro")
    s.do(trick(C("gato", 3, "gato-da-sorte"), C("gato", 2), C("gato", 1), C("gato", 4)))
    assert s.state.curses[3] == 1
    rejects(s, trick(C("gato", 8, "gato-da-sorte"), C("gato", 5), C("gato", 6), C("gato", 7)),
            "gato-da-sorte was already played this round")
    assert fc.card(s.rules, C("bode", 7)) == fa.FILIPI
    for bad, frag in ((["copa", 1], "unknown card"), (["gato"], "unknown card"),
                      ([], "a card must be"), ("copo", "a card must be"),
                      (["copo", 1], "unknown card"), (["fantasma", 13], "must be 1..12"),
                      (["fantasma", 1, "belleanna"], "a ghost has no name")):
        with pytest.raises(Rejected) as e:
            fc.card(s.rules, bad)
        assert frag in str(e.value)


@pytest.mark.parametrize("deck,frag", [
    ([1, 10], "deck must be an object"),
    ({"numbers": [8, 10], "cursed": DECK["cursed"]}, "must include 7"),
    ({"numbers": [5, 3], "cursed": DECK["cursed"]}, "highest number must be 5..31"),
    ({"numbers": [1, 10]}, "missing key 'cursed'"),
    ({"numbers": [1, 10], "cursed": {"candelabro": ["vela", 4]}}, "missing key 'gato-da-sorte'"),
    ({"numbers": [1, 10], "cursed": dict(DECK["cursed"], candelabro=["gato", 4])},
     "candelabro is a vela card"),
    ({"numbers": [1, 10], "cursed": dict(DECK["cursed"], candelabro=["vela", 12])},
     "candelabro's number must be 1..10"),
    ({"numbers": [1, 10], "cursed": dict(DECK["cursed"], **{"filipi-bode": ["bode", 6]})},
     'filipi-bode is always ["bode", 7]'),
    ({"numbers": [1, 10], "cursed": DECK["cursed"], "copo": 1}, 'unknown key "copo"'),
])
def test_deck_header_is_checked(deck, frag):
    with pytest.raises(Rejected) as e:
        game(4, deck=deck)
    assert frag in str(e.value)


def test_deck_is_only_for_fantasmagoria_and_filipi_may_be_named():
    d = {"numbers": [1, 10], "cursed": dict(DECK["cursed"], **{"filipi-bode": ["bode", 7]})}
    assert game(4, deck=d).rules.known == [9, 4, 7, 2]
    with pytest.raises(Rejected) as e:
        Session({"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B"], "deck": DECK})
    assert "deck is only for fantasmagoria" in str(e.value)


# -- referee entry holds the table to the cards ------------------------------------------

def test_a_card_is_played_once_a_round_and_a_missing_suit_stays_missing():
    s = started(trump=1, leader=0)
    rejects(s, trick(C("gato", 5), C("gato", 5), C("gato", 2), C("gato", 10)), "appears twice")
    s.do(trick(C("gato", 5), C("gato", 8), C("gato", 2), C("gato", 10)))       # seat 3 wins
    rejects(s, trick(C("gato", 5), C("gato", 3), C("gato", 4), C("gato", 6)),
            'card ["gato", 5] was already played this round')
    # Seat 0 does not follow boneca and is possessed; the sacrifice was
    # entered quickly, so the ghost pile it took may hold one boneca.
    s.do(trick(C("boneca", 5), C("vela", 9), C("boneca", 2), C("boneca", 10)))  # vela 9 wins
    s.do(trick(C("boneca", 1), C("boneca", 3), C("boneca", 4), C("boneca", 6)))  # seat 3 wins
    assert s.state.took[0] == fc.card(s.rules, C("boneca", 1))     # so that was its pile's
    # Possessed already, seat 0 fails boneca again: now it surely lacks it.
    s.do(trick(C("boneca", 7), C("vela", 1), C("boneca", 8), C("boneca", 9)))   # boneca 9 wins
    assert s.view()["leader"] == 2
    rejects(s, trick(C("boneca", 11), C("boneca", 12), C("boneca", 13), C("boneca", 14)),
            "P1 (seat 0) showed in trick 4 that it holds no boneca, so it cannot hold")


def test_possession_keeps_the_missing_suit_but_for_the_piles_sacrificed_card():
    s = game(4)
    s.do(sac(C("gato", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))   # seat 1 leads
    s.do(trick(C("vela", 1), C("gato", 2), C("vela", 4), C("vela", 6)))    # seat 2 fails vela
    assert s.state.void[2 * 6 + fa.VELA] == 1 | fc.BEFORE   # the vela 3 may be in its pile
    rejects(s, trick(C("vela", 7), C("vela", 8), C("vela", 9), C("vela", 10)),
            'P3 (seat 2) showed in trick 1 that it holds no vela but the sacrificed card of the '
            'ghost pile it took then, so it cannot hold ["vela", 7]')
    s.do(trick(C("vela", 3), C("vela", 8), C("vela", 9), C("vela", 10)))     # seat 2 leads
    assert s.state.took[2] == fc.card(s.rules, C("vela", 3))
    s = game(4)
    s.do(sac(C("bode", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))   # no gato sacrificed
    s.do(trick(C("gato", 1), C("bode", 2), C("gato", 4), C("gato", 6)))
    rejects(s, trick(C("gato", 3), C("gato", 7), C("gato", 9), C("gato", 10)),
            "P3 (seat 2) showed in trick 1 that it holds no gato but the sacrificed card")


# -- generic: every game's checks -------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_random_games_undo_and_quick_entry_agree(n, seed):
    opts = [None, {"led_copo": "free"}, {"copo_follows": False},
            {"copo_traps_filipi": False, "track_floor": False}, {"odd_card": "dealt"},
            {"odd_card": "dealt", "only_ghosts": "end"}][seed % 6]
    # fantasmagoria_game checks itself that the quick log ends like the referee's
    h, actions = fantasmagoria_game(n, seed, quick=(0, 50, 100)[seed % 3], options=opts,
                                    deck=bool(seed % 2))
    s = Session(h)
    for a in actions:
        assert do_checked(s, a)
    v = s.view()
    assert v["status"] == "over" and len(v["rounds"]) == 3 and len(v["winners"]) == 1
    assert v["scares"][v["winners"][0]] == min(v["scares"])


# -- exact holdings: one pile a seat, counted hands, a hand of ghosts ------------------

DECKED = {"deck": DECK}


def test_a_seat_plays_one_sacrificed_card_a_round():
    s = game(4)
    s.do(sac(C("gato", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))   # seat 1 leads
    s.do(trick(C("gato", 2), C("bode", 3), C("gato", 4), C("gato", 6)))   # seat 2 possessed
    s.do(trick(C("bode", 8), C("bode", 1), C("bode", 2), C("bode", 4)))   # its pile's bode 8
    rejects(s, trick(C("boneca", 9), C("boneca", 1), C("boneca", 2), C("boneca", 4)),
            'P3 (seat 2) took the ghost pile of ["bode", 8], so it holds no other sacrificed card')


def test_took_names_the_piles_a_trick_brings_and_is_checked():
    s = game(4)
    s.do(sac(C("gato", 5), C("vela", 3), C("bode", 8), C("boneca", 9)))   # seat 1 leads
    t = [C("vela", 1), C("gato", 2), C("vela", 4), C("bode", 6)]          # seats 2 and 0 fail
    rejects(s, dict(trick(*t), took=[C("bode", 8)]), "took must name one ghost pile for each")
    rejects(s, dict(trick(*t), took=[C("bode", 8), C("bode", 8)]), "two seats cannot take")
    rejects(s, dict(trick(*t), took=[C("bode", 8), C("gato", 7)]),
            'took: ["gato", 7] is not the sacrificed card of a ghost pile')
    rejects(s, dict(trick(*t), took=[C("bode", 8), C("vela", 1)]), "not the sacrificed card")
    s.do(dict(trick(*t), took=[C("vela", 3), C("bode", 8)]))
    assert [s.state.took[i] for i in (2, 0)] == [fc.card(s.rules, C("vela", 3)),
                                                fc.card(s.rules, C("bode", 8))]
    assert s.actions()[-1]["took"] == [["vela", 3], ["bode", 8]]        # given back as written
    assert s.view()["leader"] == 2          # gato 2 showed the trump
    s.do(trick(C("boneca", 5), C("boneca", 10), C("boneca", 1), C("boneca", 2)))   # seat 1 wins
    # seat 2 holds its pile's vela 3, so it must follow a vela led
    rejects(s, trick(C("vela", 7), C("boneca", 6), C("vela", 8), C("boneca", 7)),
            'P3 (seat 2) took the ghost pile of ["vela", 3], so it must follow vela')
    s.do(trick(C("vela", 7), C("vela", 3), C("vela", 8), C("boneca", 7)))


def test_a_quick_sacrifice_bounds_the_sacrificed_cards_by_its_trump():
    s = started(trump=5, leader=0)
    s.do(trick(C("gato", 6), C("bode", 9), C("gato", 7), C("gato", 8)))   # seat 1 fails gato
    rejects(s, trick(C("gato", 4), C("gato", 2), C("gato", 3), C("gato", 10)),
            'showed in trick 1 that it holds no gato but the sacrificed card')
    s.do(trick(C("gato", 5), C("gato", 2), C("gato", 3), C("gato", 10)))   # 5 is no lower
    rejects(s, trick(C("gato", 11), C("gato", 12), C("gato", 13), C("gato", 14)),
            'P2 (seat 1) showed in trick 1 that it holds no gato but the sacrificed card of the '
            'ghost pile it took then, so it cannot hold ["gato", 12]')


@pytest.mark.parametrize("odd", ["aside", "dealt"])
def test_with_the_deck_every_hand_is_counted(odd):
    """A 3-player round on a deck of 1..10 (31 cards: 10 each and the odd
    one) played out by the simulator's table; its end with a card too many
    or too few is refused, and the engine's count is the hands'."""
    h, actions = fantasmagoria_game(3, 5, options={"odd_card": odd})
    end = next(i for i, a in enumerate(actions) if a["do"] == "end-round")
    s = Session(h)
    for a in actions[:end]:
        s.do(a)
    left = actions[end]["leftover"]
    sizes = [len(x) for x in left]
    assert 0 in sizes
    if odd == "aside":
        assert list(s.state.hand) == sizes
    longest = sizes.index(max(sizes))
    kept = [fc.card(s.rules, c) & 0xFF for x in left for c in x]
    unseen = [fc.card_json(c) for c in card_table.fa_deck(s.rules, DECK["numbers"])[0]
              if not s.state.seen[c & 0xFF] and c & 0xFF not in kept]
    assert len(unseen) == (odd == "aside")        # the card set aside
    for change, why in ((lambda x: x[1:], "cards at the round's end, not"),
                        (lambda x: x + unseen, "")):      # a void may see it first
        hands = [list(x) for x in left]
        hands[longest] = change(hands[longest])
        if hands[longest] != left[longest]:
            rejects(s, leftover(*hands), "" if odd == "dealt" else why)
    s.do(actions[end])
    assert s.view()["round"] == 2


@pytest.mark.parametrize("odd", ["aside", "dealt"])
def test_a_trick_needs_a_card_from_every_hand(odd):
    s = started(trump=3, leader=0, options={"odd_card": odd}, **DECKED)
    for seat in (1, 2, 3):
        s.do({"do": "possess", "seat": seat, "number": 3})
    s.do({"do": "trick", "winner": 0})
    for _ in range(8):
        s.do({"do": "trick", "winner": 0})
    assert list(s.state.hand) == [0, 4, 4, 4] and s.state.odd == (odd == "dealt")
    if odd == "dealt":
        s.do({"do": "trick", "winner": 0})        # seat 0 plays the odd card, so holds it
        assert list(s.state.hand) == [0, 3, 3, 3] and s.state.odd == 0
    rejects(s, {"do": "trick", "winner": 0}, "round 1 is over: P1 (seat 0) has no card left")
    s.do({"do": "end-round", "piles": [pile()] * 4})


def test_a_round_of_no_tricks_is_refused_with_the_deck():
    s = game(4, **DECKED)
    s.do(sac(C("bode", 3), C("gato", 5), C("boneca", 5), C("vela", 6)))
    rejects(s, leftover([], [], [], []), "P1 (seat 0) must hold 9 cards at the round's end, not 0")
    rejects(s, {"do": "end-round", "piles": [pile()] * 4},
            "round 1 is not over: every seat still holds cards (P1 (seat 0) 9,")
    q = started(trump=3, leader=0, **DECKED)
    for _ in range(9):
        q.do({"do": "trick", "winner": 0})
    assert list(q.state.hand) == [0, 0, 0, 0]
    rejects(q, {"do": "possess", "seat": 1, "number": 3}, "round 1 is over")
    q.do({"do": "end-round", "piles": [pile()] * 4})


def test_only_ghosts_lead_a_misdeal_no_deck():
    """With an even deal no leader is ever left with ghosts alone while a seat
    is unpossessed (docs/rules.md); after a misdeal the engine, which cannot
    count hands without the deck, takes the ghost lead as that hand and holds
    the seat to it."""
    s = started(trump=1, leader=0)
    s.do(trick(C("gato", 5), C("bode", 9), C("vela", 2), C("gato", 6)))   # 1, 2; 9 wins
    s.do(trick(G(1), G(2), C("gato", 7), C("gato", 8)))                   # seat 1 leads a ghost
    assert s.state.void[1 * 6 + fa.NOCOPO] == 2
    s2 = started(trump=1, leader=0, options={"only_ghosts": "end"})
    s2.do(trick(C("gato", 5), C("bode", 9), C("vela", 2), C("gato", 6)))
    rejects(s2, trick(G(1), G(2), C("gato", 7), C("gato", 8)), "a ghost may lead only")
    s2.do(leftover([C("gato", 1)], [G(1), G(2)], [G(3)], [C("gato", 8)]))   # no empty hand
    assert s2.view()["round"] == 2


def test_with_the_deck_a_ghost_lead_before_every_seat_is_possessed_is_refused_by_count():
    s = game(4, **DECKED)
    s.do(sac(C("bode", 3), C("gato", 5), C("boneca", 5), C("vela", 6)))
    s.do(trick(C("gato", 6), C("boneca", 8), C("gato", 7), C("gato", 4)))   # seat 1 wins
    rejects(s, trick(G(1), C("gato", 1), C("gato", 2), C("gato", 3)),
            "a ghost may lead only when every seat is possessed, or from a hand of ghosts "
            "alone: P2 (seat 1) holds 12 cards, at most 3 of them ghosts")


class _First:
    """An rng that always draws the first: the ghost piles go in order."""

    def below(self, n):
        return 0


@pytest.mark.parametrize("mode", ["lead", "end"])
@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_a_misdeal_leaves_a_leader_only_ghosts_and_the_table_plays_on(mode, bot):
    """A deal no even deal gives (seat 1 dealt 1 card, the others 3): seat 1
    is possessed in trick 1, plays its pile's vela 9 in trick 2 and leads
    trick 3 with ghosts alone while seat 0 is not possessed. With
    only_ghosts "lead" its bot leads a ghost and the engine takes it; with
    "end" the table ends the round and the engine takes the leftover."""
    from altar.rng import Rng
    from altar_host.sim.simulate import FA_BOTS
    s = started(trump=1, leader=0, options={"only_ghosts": mode})
    st = s.state
    card = lambda c: fc.card(s.rules, c)
    hands = [[card(C("gato", 5)), card(C("vela", 2)), card(C("gato", 12))],
             [card(C("bode", 9))],
             [card(C("gato", 6)), card(C("vela", 3)), card(C("gato", 13))],
             [card(C("gato", 7)), card(C("vela", 4)), card(C("gato", 14))]]
    piles = [[card(G(1)), card(G(2)), card(G(3)), card(C("vela", 9))]] + \
        [[card(G(g)) for g in range(4 + 3 * i, 7 + 3 * i)] + [card(C("bode", 20 - i))]
         for i in range(3)]
    bots = [FA_BOTS[bot](Rng(i + 1)) for i in range(4)]
    for played in ([C("gato", 5), C("bode", 9), C("gato", 6), C("gato", 7)],    # 9 wins
                   [C("vela", 9), C("vela", 3), C("vela", 4), C("vela", 2)]):   # 9 wins
        before, leader = st.possessed, st.leader
        for i, c in enumerate(played):
            hands[(leader + i) % 4].remove(card(c))
        s.do(trick(*played))
        card_table.fa_possess(st, leader, before, hands, piles, _First())
    assert st.leader == 1 and hands[1] == [card(G(n)) for n in (1, 2, 3)]
    assert not st.possessed & 1 and hands[0]
    if mode == "end":
        assert not card_table.fa_goes_on(st, hands)
        s.do(leftover(*[[fc.card_json(c) for c in h] for h in hands]))
        assert s.view()["round"] == 2
        return
    assert card_table.fa_goes_on(st, hands)
    assert fc.legal(st, hands[1], []) == hands[1]
    cards = []
    card_table.fa_trick(st, hands, cards, bots)
    assert cards[0] >> 5 == fa.GHOST
    s.do(trick(*[fc.card_json(c) for c in cards]))
    assert st.void[1 * 6 + 0] == 3              # seat 1 holds ghosts alone: no gato
