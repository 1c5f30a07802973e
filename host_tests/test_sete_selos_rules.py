"""Every Sete Selos rule of the rules notes, each with a test that fails if
it breaks (as docs/rules.md reads them, Sete Selos)."""

import pytest

from altar import sete_selos
from altar.sete_selos import best_removal, power_result, removals, suggest
from altar.sete_selos_cards import ritual_winner
from conftest import header, play, q, rejects, snapshot


def cards(*cs):
    return {"do": "ritual", "cards": [list(c) for c in cs]}


def elder(s, v):
    return s.view()["elders"][v - 1]


# -- 4. winner of a ritual: the manual's four examples --------------------------

# Signs were lost from the text; each example is read as docs/rules.md says.
EXAMPLES = [
    # Ritual 1: altar 6, then 7 and 1 of the same sign: the third player's 1 wins.
    ([(1, 6), (1, 7), (1, 1)], 2),
    # Ritual 2: altar 6, then a 4 and a 7 of other (non-trump) signs: the altar card wins.
    ([(1, 6), (2, 4), (2, 7)], 0),
    # Ritual 3: altar 6, then a 5 of the sign and a trump 2: the trump wins.
    ([(1, 6), (1, 5), (0, 2)], 2),
    # Ritual 4: altar 7, then the 1 of that sign, a trump 2, a trump 5: the 5 wins.
    ([(1, 7), (1, 1), (0, 2), (0, 5)], 3),
]


@pytest.mark.parametrize("played,winner", EXAMPLES)
def test_manual_ritual_examples(played, winner):
    assert ritual_winner(played) == winner


@pytest.mark.parametrize("played,winner", EXAMPLES)
def test_manual_ritual_examples_by_referee_entry(played, winner):
    n = len(played)
    s = play(header(n, first=1), [cards(*played)])
    w = (1 + winner) % n
    v = s.view()
    assert v["leader"] == w and v["ritual"] == 1
    assert elder(s, played[winner][1])["cultists"][w] == 1


def test_one_beats_seven_only_within_the_competing_sign():
    assert ritual_winner([(0, 7), (0, 1)]) == 1          # trump 1 beats trump 7
    assert ritual_winner([(2, 7), (0, 1)]) == 1          # a trump wins anyway
    assert ritual_winner([(2, 7), (1, 1)]) == 0          # the 1 of another sign does not
    assert ritual_winner([(2, 6), (2, 1), (2, 5)]) == 0  # no 7: the 1 is the lowest


def test_trump_led_and_highest_trump():
    assert ritual_winner([(0, 3), (1, 7), (0, 4)]) == 2


# -- 1. signs ----------------------------------------------------------------------

def test_signs_by_player_count():
    s = play(3)
    rejects(s, cards((3, 1), (0, 2), (1, 3)), "sign 3 is not in play")
    s = play(header(3, options={"signs": [0, 1, 3]}))
    rejects(s, cards((2, 1), (0, 2), (1, 3)), "sign 2 is not in play")
    s.do(cards((3, 1), (0, 2), (1, 3)))
    play(4, [cards((3, 1), (0, 2), (1, 3), (2, 2))])


def test_signs_option_validated():
    for bad in ([0, 1], [0, 0, 1], [0, 1, 4], [True, 1, 2]):
        with pytest.raises(Exception) as e:
            play(header(3, options={"signs": bad}))
        assert "signs" in str(e.value)


# -- 5. placing and reveal -----------------------------------------------------------

def test_placement_and_reveal_at_third_cultist():
    s = play(4, [q(0, 4), q(1, 4)])
    assert elder(s, 4) == {"value": 4, "revealed": False, "cultists": [1, 1, 0, 0]}
    s.do(q(2, 4))
    assert elder(s, 4) == {"value": 4, "revealed": True, "cultists": [1, 1, 1, 0]}
    assert [e["revealed"] for e in s.view()["elders"]].count(True) == 1


# -- 6. revealed Elder: insanity and redirect ------------------------------------------

def test_insanity_then_redirect_to_a_sealed_elder():
    s = play(4, [q(0, 4), q(1, 4), q(2, 4), q(3, 4)])
    v = s.view()
    assert v["insanity"] == [0, 0, 0, 1]
    assert v["awaiting"] == {"do": "redirect", "seat": 3}
    assert v["ritual"] == 4 and v["leader"] == 3
    rejects(s, q(0, 1), "must first redirect")
    rejects(s, {"do": "redirect", "elder": 4}, "Elder 4 is revealed")
    rejects(s, {"do": "redirect", "elder": 8}, "elder must be 1..7")
    s.do({"do": "redirect", "elder": 6})
    assert s.view()["awaiting"] is None
    assert elder(s, 6)["cultists"] == [0, 0, 0, 1]


def test_redirect_can_reveal():
    s = play(4, [q(0, 4), q(1, 4), q(2, 4), q(0, 5), q(1, 5), q(3, 4)])
    s.do({"do": "redirect", "elder": 5})
    assert elder(s, 5) == {"value": 5, "revealed": True, "cultists": [1, 1, 0, 1]}


def test_redirect_only_when_awaited():
    s = play(4, [q(0, 1)])
    rejects(s, {"do": "redirect", "elder": 2}, "no cultist is waiting")


def test_banished_redirects_clockwise_manual_example():
    # 2 players: 7 and 1 revealed; the Banished wins with a 7 and goes to 2.
    s = play(2, [q(0, 7), q(0, 7), q(1, 7), q(0, 1), q(1, 1), q(1, 1)])
    assert elder(s, 7)["revealed"] and elder(s, 1)["revealed"]
    s.do(q(2, 7))
    v = s.view()
    assert v["awaiting"] is None
    assert v["insanity"] == [0, 0, 1]
    assert elder(s, 2)["cultists"] == [0, 0, 1]


def test_banished_clockwise_skips_revealed_and_wraps():
    s = play(2, [q(0, 6), q(0, 6), q(1, 6), q(0, 7), q(1, 7), q(1, 7),
                 q(0, 1), q(1, 1), q(1, 1)])
    s.do(q(2, 6))  # 6 revealed -> 7 revealed -> 1 revealed -> 2
    assert elder(s, 2)["cultists"] == [0, 0, 1]


# -- 7. immediate victory ------------------------------------------------------------------

def over(s, winners, reason="immediate"):
    v = s.view()
    assert (v["status"], v["winners"], v["reason"]) == ("over", winners, reason), v
    return v


def test_4p_three_on_one_elder():
    s = play(4, [q(1, 2), q(1, 2)])
    assert s.view()["status"] == "playing"
    s.do(q(1, 2))
    over(s, [1])
    rejects(s, q(0, 3), "game is over")


def test_3p_needs_three_on_two_elders():
    s = play(3, [q(0, 1), q(0, 1), q(0, 1)])
    assert s.view()["status"] == "playing"  # 3 on one Elder is not enough with 3
    s.do(q(0, 2))
    s.do(q(0, 2))
    s.do(q(0, 2))
    over(s, [0])


def test_3p_six_not_on_two_elders_is_not_victory():
    s = play(3, [q(2, v) for v in (1, 1, 2, 2, 3, 3)])
    assert s.view()["status"] == "playing"


def insanity_run(n, seat, times, reveal):
    """Reveal Elder 1 with `reveal` seats, then `seat` wins on it `times` times,
    redirecting to Elders 2, 3, ... as long as the game goes on."""
    s = play(n, [q(r, 1) for r in reveal])
    target = 2
    for _ in range(times):
        s.do(q(seat, 1))
        if s.view()["awaiting"]:
            s.do({"do": "redirect", "elder": target})
            target += 1
    return s


@pytest.mark.parametrize("n,mad", [(4, 4), (3, 5), (2, 5)])
def test_insanity_limit_wins_before_the_cultist_moves(n, mad):
    s = insanity_run(n, 0, mad - 1, [1, 1, 2] if n > 2 else [1, 1, 1])
    v = s.view()
    assert v["status"] == "playing" and v["insanity"][0] == mad - 1
    s.do(q(0, 1))
    v = over(s, [0])
    assert v["insanity"][0] == mad
    assert v["awaiting"] is None
    placed = sum(sum(e["cultists"]) for e in v["elders"])
    assert placed == v["ritual"] - 1  # the last cultist never moved


def test_2p_human_nine_on_four_elders():
    s = play(2, [q(0, 1), q(0, 1), q(0, 1), q(0, 2), q(0, 2), q(0, 2), q(0, 3), q(0, 3)])
    assert s.view()["status"] == "playing"  # 8 on 3 Elders
    s.do(q(0, 4))
    over(s, [0])                           # 3 + 3 + 2 + 1 = 9


def test_2p_human_nine_spread_over_five_is_not_victory():
    s = play(2, [q(0, v) for v in (1, 1, 2, 2, 3, 3, 4, 4, 5)])
    assert s.view()["status"] == "playing"  # 9 in all, but the 4 largest make 8


def test_banished_four_cultists_anywhere():
    s = play(2, [q(2, 1), q(2, 3), q(2, 5)])
    assert s.view()["status"] == "playing"
    s.do(q(2, 7))
    over(s, [2])


def test_banished_three_insanity():
    s = play(2, [q(0, 1), q(0, 1), q(1, 1), q(2, 1), q(2, 1)])
    v = s.view()
    assert v["insanity"] == [0, 0, 2] and v["status"] == "playing"
    s.do(q(2, 1))
    over(s, [2])


def test_the_banished_victory_as_options():
    """banished_cultists and banished_insanity move the Banished's row; the
    humans' row stays."""
    h = header(2, options={"banished_cultists": 5})
    s = play(h, [q(2, 1), q(2, 3), q(2, 5), q(2, 7)])
    assert s.view()["status"] == "playing"          # 4 is no longer enough
    s.do(q(2, 2))
    over(s, [2])
    h = header(2, options={"banished_insanity": 4})
    s = play(h, [q(0, 1), q(0, 1), q(1, 1), q(2, 1), q(2, 1), q(2, 1)])
    assert s.view()["insanity"] == [0, 0, 3] and s.view()["status"] == "playing"
    s.do(q(2, 1))
    over(s, [2])
    assert play(header(2, options={"banished_cultists": 2}), [q(2, 1), q(2, 3)]).state.over
    assert play(header(4, options={"banished_cultists": 9})).rules.victory == [(1, 3, 4, 0)] * 4


# -- 2. and 9. series, leader, dealer ------------------------------------------------------------

def test_winner_leads_and_series_dealer_leads_next():
    s = play(header(3, first=2))
    assert s.view()["leader"] == 2          # the first dealer leads ritual 1
    for i, w in enumerate([0, 1, 2, 0, 1, 2, 1]):
        s.do(q(w, 1 + i))
        assert s.view()["leader"] == w
    assert s.state.first == 1              # the winner of ritual 7 deals series 2
    assert s.view()["ritual"] == 7


def test_banished_leads_first_ritual_of_every_series():
    s = play(header(2, first=1))
    assert s.view()["leader"] == 2 and s.view()["first_player"] == 1
    for i, w in enumerate([0, 1, 0, 1, 0, 1, 0]):
        s.do(q(w, 1 + i))
    v = s.view()
    assert v["leader"] == 2 and v["first_player"] == 0
    s.undo()
    s.do(q(2, 7))
    # The Banished won: the human to its right, who was not first player, is.
    assert s.view()["leader"] == 2 and s.view()["first_player"] == 0
    fixed = play(header(2, first=1, options={"banished_seating": "fixed"}),
                 [q(w, 1 + i) for i, w in enumerate([0, 1, 0, 1, 0, 1, 2])])
    assert fixed.view()["first_player"] == 1      # the earlier reading: seat 1 always


# The example: series 1 by quick entry, P2 wins its last ritual, so P2
# is series 2's first player and ritual 8 is played Banished, P2, P1.
SERIES_1 = [q(0, 1), q(1, 2), q(0, 3), q(1, 4), q(2, 5), q(0, 6), q(1, 7)]


def test_2p_seats_follow_each_series_first_player():
    h = {"altar": 1, "game": "sete-selos", "players": ["P1", "P2"]}
    s = play(h, SERIES_1)
    assert s.view()["first_player"] == 1 and s.view()["leader"] == 2
    s.do(cards((1, 5), (1, 6), (1, 3)))
    v = s.view()
    assert v["leader"] == 1 and elder(s, 6)["cultists"] == [1, 1, 0]   # P2's 6 won
    # P2 leads ritual 9, so P1 plays second and the Banished last: P1's 7 wins
    s.do(cards((2, 3), (2, 7), (1, 4)))
    assert s.view()["leader"] == 0 and elder(s, 7)["cultists"] == [1, 1, 0]
    # P1, the Banished, P2: P2 does not follow sign 2, and cannot later
    s.do(cards((2, 1), (1, 1), (1, 2)))
    rejects(s, cards((2, 5), (0, 6), (2, 2)), "P2 (seat 1) did not follow sign 2")
    # With the earlier reading the same cards are Banished, P1, P2: P1's 6 wins.
    old = play(dict(h, options={"banished_seating": "fixed"}), SERIES_1)
    old.do(cards((1, 5), (1, 6), (1, 3)))
    assert old.view()["leader"] == 0 and elder(old, 6)["cultists"] == [2, 0, 0]


def test_2p_first_player_over_three_series():
    s = play(header(2, first=0))
    firsts = [s.view()["first_player"]]
    # series 1 ends with P2's win, series 2 with the Banished's (P2 was first:
    # P1, to the Banished's right, is first of series 3)
    for w in [0, 0, 1, 2, 1, 0, 1] + [1, 0, 2, 0, 1, 0, 2]:
        s.do(q(w, 1 + s.view()["ritual"] % 7))
        while s.view()["awaiting"]:
            sealed = [e["value"] for e in s.view()["elders"] if not e["revealed"]]
            s.do({"do": "redirect", "elder": sealed[0]})
        if s.view()["ritual"] % 7 == 0:
            firsts.append(s.view()["first_player"])
    assert firsts == [0, 1, 0]
    assert [s.state.after(2, i) for i in range(3)] == [2, 0, 1]


def test_2p_removals_go_round_the_last_series_seats():
    """A whole random game that ends by power with P2 first in series 3,
    the last ritual won by P1: removals go P1, the Banished (to P1's left
    now), P2; with the fixed seats P1, P2, the Banished."""
    from altar_host.sim.randomplay import sete_selos_game
    h, a = sete_selos_game(2, 21, quick=100)
    for seating, banished_before_p2 in (("follow", True), ("fixed", False)):
        s = play(dict(h, options={"banished_seating": seating}), a[:a.index(
            next(x for x in a if x["do"] == "remove"))])
        st = s.state
        assert st.first == 1 and st.last == 0 and st.ins[2] == 2
        assert s.view()["awaiting"]["seat"] == 0
        before = sum(st.stacks(2))
        s.do({"do": "remove", "seat": 0, "elders": suggest(st, 0)})
        assert s.view()["awaiting"]["seat"] == 1
        assert (sum(st.stacks(2)) == before - 2) == banished_before_p2


def test_2p_nine_cultists_on_three_elders_win_unless_four_elders_asked():
    # P1: 3 + 3 + 3 on Elders 1, 2 and 3 (P2 fills nothing, so no reveal)
    acts = [q(0, v) for v in (1, 1, 1, 2, 2, 2, 3, 3)]
    won = play(header(2), acts + [q(0, 3)])
    over(won, [0])
    literal = play(header(2, options={"four_elders_2p": True}), acts + [q(0, 3)])
    assert literal.view()["status"] == "playing"
    assert literal.view()["elders"][2]["revealed"]
    # a fourth Elder with a cultist: 3 + 3 + 3 + 1 wins under both readings
    literal.do(q(0, 4))
    over(literal, [0])


def test_2p_first_must_be_a_human():
    with pytest.raises(Exception) as e:
        play(header(2, first=2))
    assert "first" in str(e.value)


def test_referee_entry_follows_the_leader():
    s = play(header(3, first=1), [cards((1, 3), (1, 5), (2, 1))])
    # seat 1 led, seat 2 played 5 and won; seat 0 did not follow sign 1.
    v = s.view()
    assert v["leader"] == 2 and elder(s, 5)["cultists"] == [0, 0, 1]
    # seat 0 showed it has no sign 1: a later sign-1 card from it is refused.
    rejects(s, cards((2, 2), (1, 6), (2, 4)), "P1 (seat 0) did not follow sign 1")
    # a card cannot be played twice in a series
    rejects(s, cards((1, 3), (2, 2), (2, 4)), "already played in this series")
    rejects(s, cards((2, 2), (2, 2), (2, 4)), "played twice")
    rejects(s, cards((2, 2), (2, 3)), "must have 3 entries")
    s.do(cards((2, 2), (2, 6), (2, 4)))


def test_series_forgets_played_cards_and_voids():
    acts = [cards((1, 3), (1, 5), (2, 1))]
    for w in range(6):
        acts.append(q(w % 3, 2 + (w % 5)))
    s = play(header(3, first=1), acts)
    assert s.view()["ritual"] == 7
    lead = s.view()["leader"]
    order = [(1, 3), (0, 1), (1, 1)]
    by_seat = {(lead + i) % 3: c for i, c in enumerate(order)}
    by_seat[0] = (1, 5)  # seat 0 may hold sign 1 again in a new series
    s.do(cards(*[by_seat[(lead + i) % 3] for i in range(3)]))


def test_banished_does_not_have_to_follow():
    s = play(header(2, first=0), [cards((1, 3), (1, 5), (2, 1))])
    # leader was the Banished (seat 2): order 2, 0, 1. Seat 1 did not follow.
    rejects(s, cards((1, 7), (1, 6), (2, 3)), "P2 (seat 1) did not follow sign 1")
    s2 = play(header(2, first=0), [cards((2, 3), (1, 5), (1, 1))])
    # seat 2 (Banished) led sign 2; later Banished plays sign 1 freely.
    assert s2.view()["leader"] == 2
    s2.do(cards((1, 2), (1, 6), (1, 7)))


# -- 8. end by power -------------------------------------------------------------------------

# The manual's end-game example (pictures lost): P1..P4 = seats 0..3, built so
# that every figure of the text holds. Placements per Elder, then insanity
# from redirects: P1 3, P2 1, P3 2, P4 0.
def end_game_example():
    acts = [q(2, 1), q(3, 1), q(3, 1)]           # Elder 1 revealed: P3 1, P4 2
    for seat, to in ((0, 4), (0, 6), (0, 6), (1, 2), (2, 3), (2, 3)):
        acts += [q(seat, 1), {"do": "redirect", "elder": to}]
    acts += [q(0, 7), q(1, 2), q(3, 2), q(1, 4), q(1, 4), q(2, 5), q(1, 5),
             q(3, 5), q(1, 6), q(3, 3), q(1, 7), q(3, 7)]
    return play(4, acts)


def test_end_game_example_removal_phase():
    s = end_game_example()
    v = s.view()
    assert v["ritual"] == 21 and v["insanity"] == [3, 1, 2, 0]
    assert all(e["revealed"] for e in v["elders"])
    # starts with the last ritual's winner (P4, nothing to remove), then clockwise
    assert v["awaiting"] == {"do": "remove", "seat": 0, "count": 3}
    rejects(s, {"do": "remove", "seat": 1, "elders": [2]}, "P1 (seat 0) removes now, not P2 (seat 1)")
    rejects(s, {"do": "remove", "seat": 0, "elders": [6, 6]}, "must remove 3")
    rejects(s, {"do": "remove", "seat": 0, "elders": [6, 6, 6]}, "cannot remove 3")
    rejects(s, q(0, 1), "the rituals are over: P1 (seat 0) must remove 3")
    s.do({"do": "remove", "seat": 0, "elders": [6, 6, 4]})
    assert s.view()["awaiting"] == {"do": "remove", "seat": 1, "count": 1}
    assert suggest(s.state, 1) == [2]
    s.do({"do": "remove", "seat": 1, "elders": [2]})
    assert suggest(s.state, 2) == [1, 3]  # same power as the example's [3, 5]
    s.do({"do": "remove", "seat": 2, "elders": [3, 5]})
    v = over(s, [1], "power")
    assert v["power"] == [3, 17, 6, 17]   # P2 and P4 tie on 17; Elder 7 ties; Elder 6 decides
    assert s.state.decider == 6
    assert v["awaiting"] is None


def test_power_table_and_tie_break_pure():
    table = (0, 3, 5, 10)
    cult = bytearray(14)
    cult[0:7] = bytes([1, 1, 0, 0, 0, 0, 1])  # seat 0: 9
    cult[7:14] = bytes([0, 0, 1, 1, 1, 0, 0])  # seat 1: 9
    powers, winners, decider = power_result(cult, 2, table)
    assert powers == [9, 9] and winners == [0] and decider == 7
    cult[7:14] = bytes([1, 1, 0, 0, 0, 0, 1])
    assert power_result(cult, 2, table) == ([9, 9], [], -1)  # no winner
    cult[0:7] = bytes([1, 1, 0, 0, 0, 0, 0])
    assert power_result(cult, 2, table) == ([6, 9], [1], 0)    # no tie


def test_no_winner_game():
    # 3 players end tied on everything: the madness prevails.
    acts = []
    for e in range(1, 8):
        acts += [q(0, e), q(1, e), q(2, e)]
    s = play(3, acts)
    v = over(s, [], "power")
    assert v["power"] == [21, 21, 21]


def test_removal_skips_seats_without_insanity():
    s = play(4, [q(0, 1), q(1, 1), q(2, 1), q(3, 1), {"do": "redirect", "elder": 2}])
    for e in range(2, 8):
        for seat in (0, 1, 2):
            if not elder(s, e)["revealed"]:
                s.do(q(seat, e))
    v = s.view()
    # only seat 3 went mad; the others are skipped whatever the order
    assert v["awaiting"] == {"do": "remove", "seat": 3, "count": 1}
    s.do({"do": "remove", "seat": 3, "elders": [2]})
    v = over(s, [], "power")
    assert v["power"][3] == 0


def test_removal_count_is_capped_by_own_cultists():
    s = play(4)
    s.state.ins[1] = 3
    s.state.cult[1 * 7 + 4] = 1
    assert s.state.removal_count(1) == 1


@pytest.mark.parametrize("opt,gone", [("low", 1), ("high", 2)])
def test_banished_removes_by_itself_keeping_power(opt, gone):
    # 2 players to the end: the Banished removes automatically, and with
    # equal power takes from the lower (default) or higher Elder.
    acts = [q(0, 1), q(1, 1), q(2, 1), q(2, 1)]  # Banished: 1 insanity, a cultist on 2
    acts += [q(0, 2), q(1, 2)]
    for e in range(3, 8):
        acts += [q(0, e), q(1, e), q(1, e)]
    s = play(header(2, options={"banished_removal": opt}), acts)
    v = s.view()
    assert v["status"] == "over" and v["reason"] == "power"
    assert [v["elders"][e - 1]["cultists"][2] for e in (1, 2)] == ([0, 1] if gone == 1 else [1, 0])
    assert v["power"][2] == 3


def test_removals_are_every_choice_best_first():
    t = (0, 3, 5, 10)
    got = removals([2, 0, 1, 0, 0, 0, 1], 2, t)
    assert got[0] == (6, best_removal([2, 0, 1, 0, 0, 0, 1], 2, t)) == (6, [1, 1])
    assert sorted(tuple(e) for _, e in got) == [(1, 1), (1, 3), (1, 7), (3, 7)]
    assert got[-1] == (5, [3, 7])     # keeps only 2 on Elder 1: the least power
    assert removals([1, 0, 0, 0, 0, 0, 1], 1, t, False) == [(3, [7]), (3, [1])]
    assert removals([2, 0, 1, 0, 0, 0, 1], 2, t, most=2) == got[:2]
    many = removals([3, 3, 3, 3, 3, 3, 3], 4, t, most=300)
    # C(10, 4) multisets of 4 from 7 Elders, less the 7 that take 4 from one
    assert len(many) == 203 and removals([3] * 7, 4, t) == many[:12]


def test_best_removal_rules():
    t = (0, 3, 5, 10)
    assert best_removal([2, 0, 0, 0, 0, 0, 1], 1, t) == [1]       # 2->1 costs 2, 1->0 costs 3
    assert best_removal([1, 0, 0, 0, 0, 0, 1], 1, t) == [1]       # equal: from the lower Elder
    assert best_removal([1, 0, 0, 0, 0, 0, 1], 1, t, False) == [7]
    assert best_removal([1, 0, 0, 0, 0, 0, 0], 3, t) == [1]       # cannot remove more than it has
    assert best_removal([3, 0, 0, 0, 0, 0, 0], 1, t) == [1]


def test_banished_removal_option_high():
    h = header(2, options={"banished_removal": "high"})
    s = play(h, [q(2, 1), q(0, 1), q(1, 1), q(2, 1)])  # Banished: 1 on E1, then redirect to E2
    assert elder(s, 2)["cultists"][2] == 1
    assert s.rules.banished_low is False


def test_power_options():
    s = play(header(2, options={"power_2p_three": 7}))
    assert s.rules.power == (0, 3, 5, 7)
    s = play(header(3, options={"power": [1, 2, 4]}))
    assert s.rules.power == (0, 1, 2, 4)
    s = play(4)
    assert s.rules.power == (0, 3, 5, 10)


def test_unknown_and_mistyped_options():
    for opts, frag in (({"trumps": 1}, 'unknown option "trumps"'),
                       ({"power": 3}, "option 'power'"),
                       ({"banished_removal": "middle"}, "banished_removal"),
                       ({"power_2p_three": True}, "power_2p_three"),
                       ({"banished_cultists": 0}, "option 'banished_cultists' must be 1..21"),
                       ({"banished_insanity": "3"}, "option 'banished_insanity' must be of the same kind as 3")):
        with pytest.raises(Exception) as e:
            play(header(2, options=opts))
        assert frag in str(e.value)


def test_rituals_at_most_21_and_totals():
    s = end_game_example()
    assert s.view()["ritual"] == 21
    rejects(s, q(0, 1), "must remove")


def test_undo_through_the_removal_phase():
    s = end_game_example()
    before = snapshot(s.state)
    s.do({"do": "remove", "seat": 0, "elders": [6, 6, 4]})
    s.do({"do": "undo"})
    assert snapshot(s.state) == before
    rejects(play(4), {"do": "undo"}, "nothing to undo")


def test_module_names():
    assert sete_selos.NAME == "sete-selos"


# -- the device's "power now": the end by power as if it came now --------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_power_if_ended_is_the_end_by_power_when_it_comes(n):
    """Before the first removal of an end by power, the prediction is the
    result once every seat removes as suggested; asking changes nothing."""
    import random
    from altar.core import Session
    from altar_fw.sete_selos import power_if_ended     # the device's Power now
    rng = random.Random(n)
    checked = 0
    for game in range(80):
        s = Session(header(n, seed=game))
        st = s.state
        while not st.over and s.view()["awaiting"] is None:
            before = snapshot(st)
            power_if_ended(st)
            assert snapshot(st) == before
            s.do(q(rng.randrange(st.rules.seats), rng.randrange(1, 8)))
            while s.view()["awaiting"] and s.view()["awaiting"]["do"] == "redirect":
                s.do({"do": "redirect", "elder": [e + 1 for e in range(7) if not st.rev >> e & 1][0]})
        if st.over:
            continue             # won at once, or no seat had cultists to remove
        want = power_if_ended(st)
        while not st.over:
            seat = s.view()["awaiting"]["seat"]
            s.do({"do": "remove", "seat": seat, "elders": suggest(st, seat)})
        assert (st.powers, st.winners, st.decider) == want[:3]
        checked += 1
    assert checked >= 3
