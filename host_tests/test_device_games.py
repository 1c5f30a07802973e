"""Fantasmagória and Ritos Ancestrais on the device, in both languages, and
what every game shares: whole games by key presses on every board with the
screen's text checked, the export replaying to the same result, power cuts
at every byte of every journal write, and golden screens."""

import json
import os
import random

import pytest

from altar import log
from altar.jsonout import dumps
from altar_fw import fantasmagoria as fa_screens
from altar_fw import ritos_ancestrais as ra_screens
from altar_fw import lang_en, lang_pt, ui as U
from altar_host.device.emulator import Device, FlashNVM, png_pixels
from conftest import HERE
from device_driver import BOARDS, goto, random_game, value_of

GOLDEN = os.path.join(HERE, "golden", "screens")
FANTASMAGORIA = 1
RITOS = 2


def same_result_after_export(dev):
    text = dev.export()
    again = log.load(text.splitlines())
    assert again.view() == dev.app.ui.session.view()
    return text


def check_fantasmagoria(dev):
    """The board says what the engine holds."""
    ui = dev.app.ui
    if ui.session is None or ui.mode != fa_screens.BOARD or ui.notice:
        return
    st = ui.session.state
    T = ui.T
    rows = dev.text()
    assert rows[0] == U.fit(T["round_lead"], (st.round, ui.names[st.leader]), 1)
    cells = ["%s %d" % (ui.short[i], x) for i, x in enumerate(st.track)]
    if len(" ".join(cells)) <= U.COLS:
        assert rows[3:5] == [(T["totals"] % "").strip(), " ".join(cells)]
    else:       # the names too long for one row: two seats a row
        assert rows[3:5] == ["  ".join(cells[:2]), "  ".join(cells[2:])]
    # who is possessed, by seat number ("-": nobody), and the trick in play
    marks = " ".join(str(i + 1) for i in range(st.rules.seats) if st.possessed >> i & 1)
    assert rows[1] == T["possessed"] % (marks or "-") and len(rows[1]) <= 14
    assert rows[2] == T["trump_lbl"] % (st.tricks + 1) and len(rows[2]) <= 14
    assert ui.screen.big == st.trump and dev.app.canvas.big == st.trump


def check_ritos(dev):
    ui = dev.app.ui
    if ui.session is None or ui.mode != ra_screens.TURN or ui.notice:
        return
    st = ui.session.state
    T = ui.T
    rows = dev.text()
    assert rows[0] == U.fit(T["turn"], (ui.names[st.turn],))
    shown = " ".join(rows[1:3])
    for seat in range(st.rules.seats):
        assert "%s %d" % (ui.play.cells[seat], st.scores[seat]) in shown
    # The turn's checklist: "one action" (the second step) inverted once
    # points were entered this turn, nothing else.
    check = T["checklist"]
    line = rows.index(check) - 1
    inv = ui.screen.inv[line]
    assert "".join([check[c] for c in range(len(check)) if inv >> c & 1]) == \
        (check.split(" ")[1] if st.acted else "")
    if st.trigger >= 0:
        assert any(r.startswith(T["final"].split(" ")[0]) for r in rows)


@pytest.mark.parametrize("game,players", [(FANTASMAGORIA, 3), (FANTASMAGORIA, 4),
                                          (RITOS, 2), (RITOS, 3), (RITOS, 4)])
@pytest.mark.parametrize("board", BOARDS)
def test_whole_game_by_key_presses(board, game, players):
    lang = ("pt", "en")[(players + BOARDS.index(board)) % 2]
    rng = random.Random(players * 31 + game * 7 + BOARDS.index(board))
    names = ("", "Ana,Bia,Caio,Duda", "Zoë, Inês ,João")[(players + game + BOARDS.index(board)) % 3]
    dev = Device(board, capture=False, lang=lang, players=names)
    check = check_fantasmagoria if game == FANTASMAGORIA else check_ritos
    orig = dev.press

    def press(word):       # the screen is checked after every key
        orig(word)
        assert all(len(row) <= U.COLS for row in dev.text()), dev.text()
        check(dev)
    dev.press = press
    random_game(dev, rng, game, players)
    st = dev.app.ui.session.state
    T = dev.app.ui.T
    names = dev.app.ui.names
    short = dev.app.ui.short
    title = dev.text()[0]
    if game == FANTASMAGORIA:
        assert title == U.fit(T["wins_spirit"] if st.spirit else T["wins"], (names[st.winners[0]],))
        assert dev.text()[1:1 + len(names)] == [
            "%s %d (%d%+d%+d)" % ((short[i], st.track[i]) + tuple(r[i] for r in st.rounds))
            for i in range(len(names))]
        assert len(st.rounds) == 3
    elif len(st.winners) == 1:
        # a tie on points that the cards in hand broke is said
        tied = st.scores.count(st.scores[st.winners[0]]) > 1
        assert title == U.fit(T["wins_hand" if tied else "wins"], (names[st.winners[0]],))
        assert dev.text()[1:1 + len(names)] == [
            T["ra_row"] % (dev.app.ui.play.cells[i], st.scores[i], st.hands[i])
            for i in range(len(names))]
    else:
        assert title == T["shared"]
    view = dev.app.ui.session.view()
    dev.boot()
    assert dev.app.ui.session.view() == view
    same_result_after_export(dev)


def test_fantasmagoria_screens_follow_the_rules():
    """Possession moves the planchette for a trick's first one only; the
    piles' entry offers no ghost or cursed card another pile already holds."""
    dev = Device("macropad", capture=False, lang="en")
    goto(dev, FANTASMAGORIA)
    goto(dev, value_of(dev, 3))
    assert dev.app.ui.mode == U.INFO and "vela" in " ".join(dev.text())
    dev.press("ok")
    dev.press("5")                       # trump 5
    dev.press("2")                       # P2 leads
    assert dev.text()[0] == "Round 1  Lead P2" and dev.app.ui.screen.big == 5
    for seat, number in ((3, 7), (1, 2)):
        dev.press("ok")
        goto(dev, value_of(dev, 1))      # Possession
        goto(dev, value_of(dev, seat - 1))
        goto(dev, value_of(dev, number))
    assert dev.app.ui.screen.big == 7 and dev.text()[1] == "Poss.: 1 3"
    dev.press("ok")
    goto(dev, value_of(dev, 2))          # End round, while the possessions' trick is open:
    assert dev.text() == ["End round", "A possession waits", "for its trick: enter",
                          "the trick's winner", "first."]          # said why, nothing done
    assert dev.app.ui.session.state.open and len(dev.app.ui.session.history) == 3
    dev.press("ok")
    assert dev.app.ui.mode == fa_screens.BOARD
    dev.press("ok")
    goto(dev, 0)
    goto(dev, value_of(dev, 2))
    dev.press("ok")
    goto(dev, value_of(dev, 2))          # End round
    goto(dev, value_of(dev, 7))          # P1: 7 ghosts
    labels = [o[0] for o in dev.app.ui.opts]
    assert "[ ] Candelabro" not in labels                 # no vela with 3 players
    goto(dev, value_of(dev, 3))          # BelleAnna
    goto(dev, value_of(dev, 9))          # done
    assert max(o[1] for o in dev.app.ui.opts) == 2        # 9 ghosts in all: 2 left
    goto(dev, value_of(dev, 2))
    assert "[ ] BelleAnna" not in [o[0] for o in dev.app.ui.opts]
    goto(dev, value_of(dev, 9))
    goto(dev, value_of(dev, 0))
    goto(dev, value_of(dev, 9))
    st = dev.app.ui.session.state
    # the round's scares, read before the next sacrifice
    assert st.rounds == [[11, 2, 0]] and dev.text()[:4] == [
        "Round 1: scares", "P1  +11  total 11", "P2  +2  total 2", "P3  +0  total 0"]
    dev.press("back")
    assert dev.text()[0] == "Sacrifice: trump?"


def test_ritos_final_round_banner_bonus_and_hands():
    dev = Device("feather-oled", capture=False, lang="pt")
    goto(dev, RITOS)
    goto(dev, value_of(dev, 3))
    goto(dev, value_of(dev, 1))          # P2 starts
    for points in (20, 2):               # P2 reaches 22: the final round
        dev.press("ok")
        goto(dev, value_of(dev, 0))
        goto(dev, value_of(dev, points))
    assert dev.app.ui.event == "reveal"
    # P2 started, so the round ends with P1, the seat before it
    assert dev.text()[4] == "Final: P2 P3 P1"
    dev.press("ok")
    goto(dev, value_of(dev, 1))          # end turn
    assert dev.text()[0] == "Vez de P3" and dev.text()[4] == "Final: P3 P1"
    for _ in range(2):
        dev.press("ok")
        goto(dev, value_of(dev, 1))
    assert dev.app.ui.session.state.done
    goto(dev, value_of(dev, 0))          # bonus
    assert dev.text() == ["Qual bônus?", "Ídolo Antigo", "Azathoth", "Cidade de Innsmouth", "Outro"]
    goto(dev, value_of(dev, 3))          # Cidade de Innsmouth
    goto(dev, value_of(dev, 2))          # P3
    goto(dev, value_of(dev, 5))
    goto(dev, value_of(dev, 1))          # hand counts
    for c in (4, 2, 7):
        goto(dev, value_of(dev, c))
    assert dev.text()[0] == "P2 vence!" and dev.app.ui.event == "victory"
    exported = same_result_after_export(dev)
    assert '{"card": "cidade-de-innsmouth", "do": "bonus", "points": 5, "seat": 2}' in exported


# -- power cuts, for every game -----------------------------------------------------------

def chunks(board, game, players, seed):
    """A whole random game's key words, split where the journal was written."""
    dev = Device(board, capture=False)
    random_game(dev, random.Random(seed), game, players)
    words = dev.pressed
    dev = Device(board, capture=False)
    out = [[]]
    for w in words:
        before = dev.nvm.writes
        # an OK that only leaves what the device said after an action (a
        # reboot boots to the game without it): "ok!", pressed if it shows
        w = "ok!" if w == "ok" and telling(dev) else w
        dev.press(w.strip("!"))
        out[-1].append(w)
        if dev.nvm.writes != before:
            out.append([])
    return [c for c in out if c]


def telling(dev):
    """The device shows what an action did, to read and leave with OK (a
    message, Sete Selos' reveal or series, Fantasmagória's round summary)."""
    ui = dev.app.ui
    return ui.mode == U.INFO or (ui.mode >= 20 and not ui.opts
                                 and ui.mode not in (ui.play.MAIN, ui.play.OVER))


def press_word(dev, w):
    if w != "ok!" or telling(dev):
        dev.press(w.strip("!"))


@pytest.mark.parametrize("game,players", [(0, 3), (FANTASMAGORIA, 4), (RITOS, 3)])
def test_power_cut_at_every_byte_of_every_write_in_every_game(game, players):
    """For every journal write of a whole game, the power fails after each
    byte of it: the device reboots into the state before (at most that
    action is lost), and doing it again gives the state after."""
    parts = chunks("macropad", game, players, 100 + game)
    ref = Device("macropad", capture=False)
    for w in parts[0]:
        press_word(ref, w)
    cuts = 0
    dev = Device("macropad", capture=False)      # reflashed and rebooted for each cut
    for part in parts[1:]:
        before = bytes(ref.nvm.data)
        view = ref.app.ui.session.view()
        for w in part:
            press_word(ref, w)
        after = ref.app.ui.session.view()
        for k in range(64):
            dev.nvm = FlashNVM()
            dev.nvm.data[:] = before
            dev.cuts = 0
            dev.boot()
            for w in part[:-1]:
                press_word(dev, w)
            dev.nvm.cut_after = k
            dev.press(part[-1])
            if not dev.cuts:
                assert dev.app.ui.session.view() == after
                break
            cuts += 1
            assert dev.app.ui.session.view() == view
            for w in part:
                press_word(dev, w)
            assert dev.app.ui.session.view() == after
            dev.boot()
            assert dev.app.ui.session.view() == after
        else:
            raise AssertionError("a frame of 64 bytes or more")
    assert cuts >= 3 * (len(parts) - 1)


# -- golden screens -------------------------------------------------------------------------

def pick(dev, v):
    goto(dev, value_of(dev, v))


def fa_tour(dev, shot):
    """Fantasmagória, 4 players: every screen, three rounds, a spirit's tie."""
    pick(dev, FANTASMAGORIA)
    pick(dev, 4)
    shot("fa-trump")
    pick(dev, 5)
    shot("fa-leader")
    pick(dev, 1)
    dev.press("ok")
    shot("fa-trick")
    pick(dev, 1)
    shot("fa-possessed")
    pick(dev, 2)
    shot("fa-number")
    pick(dev, 7)
    shot("fa-board")
    dev.press("ok")
    pick(dev, 0)
    shot("fa-winner")
    pick(dev, 2)
    for rnd, piles in enumerate(FA_PILES):
        if rnd:
            pick(dev, 4 + rnd)
            pick(dev, rnd)
        fa_end_round(dev, piles, shot if rnd == 0 else None)
        if rnd == 0:
            shot("fa-round-2")
    shot("fa-over")


# fa_tour's piles: (ghosts, cursed cards' bits) per seat, each round
FA_PILES = ([(3, 1), (1, 0), (0, 0), (2, 8)], [(2, 0), (1, 0), (1, 0), (0, 0)],
            [(0, 0), (2, 0), (1, 0), (1, 0)])


def fa_end_round(dev, piles, shot=None):
    """From the round's board: end the round with these piles."""
    dev.press("ok")
    pick(dev, 2)                     # end round
    for seat, (ghosts, cursed) in enumerate(piles):
        if seat == 0 and shot:
            shot("fa-ghosts")
        pick(dev, ghosts)
        for bit in range(4):
            if cursed >> bit & 1:
                pick(dev, bit)
        if seat == 0 and shot:
            shot("fa-cursed")
        pick(dev, 9)
    ui = dev.app.ui
    if not ui.session.state.over:
        # the round's scares, each seat's and the track, read before the sacrifice
        st = ui.session.state
        assert dev.text()[0] == ui.T["round_end"] % (st.round - 1)
        assert dev.text()[1:1 + st.rules.seats] == [
            ui.T["round_row"] % (ui.short[i], st.rounds[-1][i], st.track[i])
            for i in range(st.rules.seats)]
        if shot:
            shot("fa-summary")
        dev.press("ok")


def ra_tour(dev, shot):
    """Ritos Ancestrais, 3 players: a turn, points, the final round, the end."""
    pick(dev, RITOS)
    pick(dev, 3)
    pick(dev, 0)
    shot("ra-turn")
    dev.press("ok")
    shot("ra-action")
    pick(dev, 0)
    shot("ra-points")
    pick(dev, 20)
    dev.press("ok")
    pick(dev, 0)
    pick(dev, 3)
    shot("ra-final")
    for _ in range(3):
        dev.press("ok")
        pick(dev, 1)
    shot("ra-end")
    for points, card in ((20, 2), (3, 0)):      # P2's bonuses, Azathoth and other: 23, as P1
        pick(dev, 0)
        if points == 20:
            shot("ra-bonus")
        pick(dev, card)
        pick(dev, 1)
        pick(dev, points)
    pick(dev, 1)
    shot("ra-hands")
    for c in (3, 3, 1):
        pick(dev, c)
    shot("ra-over")


TOURS = {"fa": ("pt", fa_tour), "ra": ("en", ra_tour)}


def golden_shots(dev, board):
    """shot(name): the screen now must be the golden BOARD-NAME.png
    (ALTAR_REGEN=1 rewrites it)."""
    def shot(name):
        path = os.path.join(GOLDEN, "%s-%s.png" % (board, name))
        data = dev.png()
        if os.environ.get("ALTAR_REGEN"):
            with open(path, "wb") as f:
                f.write(data)
        with open(path, "rb") as f:
            assert png_pixels(f.read()) == png_pixels(data), path
    return shot


def names_tour(dev, shot):
    """ALTAR_PLAYERS="Ana,Bia,Caio,Inês": Sete Selos (Bia deals, rituals
    until someone is insane, the board and Power now), then Fantasmagória's
    board, the scares on two rows."""
    from device_driver import new_game, ritual
    from altar_fw import sete_selos as ss
    new_game(dev, 4, 1)
    rng = random.Random(2)
    st = dev.app.ui.session.state
    while not any(st.ins) or dev.app.ui.mode != ss.BOARD:
        if dev.app.ui.mode != ss.BOARD:
            goto(dev, 0)
        else:
            ritual(dev, rng.randrange(4), rng.randrange(1, 8))
    shot("names-board")
    dev.press("back")
    goto(dev, value_of(dev, 4))          # Power now
    shot("names-power")
    dev.press("ok")
    dev.press("back")
    goto(dev, value_of(dev, 3))          # New game
    goto(dev, value_of(dev, 1))          # erase
    pick(dev, FANTASMAGORIA)
    pick(dev, 4)
    pick(dev, 5)                         # trump 5
    pick(dev, 2)                         # Caio leads
    dev.press("ok")
    pick(dev, 0)                         # a trick, for Caio
    pick(dev, 2)
    shot("names-fa")


@pytest.mark.parametrize("board", BOARDS)
def test_golden_screens_with_names(board):
    """ALTAR_REGEN=1 rewrites them (then look at them)."""
    dev = Device(board, lang="pt", players="Ana,Bia,Caio,Inês")
    names_tour(dev, golden_shots(dev, board))
    assert dev.text()[0] == "Rodada 1  Líder Caio"


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("tour", sorted(TOURS))
def test_golden_screens_of_the_new_games(board, tour):
    """ALTAR_REGEN=1 rewrites them (then look at them)."""
    lang, play = TOURS[tour]
    dev = Device(board, lang=lang)
    play(dev, golden_shots(dev, board))
    st = dev.app.ui.session.state
    assert st.over
    if tour == "fa":
        assert st.spirit and st.track.count(min(st.track)) == 2
    else:
        assert st.winners == [0, 1]     # 23 each, 3 cards each: a shared win


# -- languages ---------------------------------------------------------------------------------

def test_every_string_fits_and_every_glyph_is_in_the_font():
    from altar_host.device.emulator import load_font
    font = load_font()
    tables = [dict(ln.split("=", 1) for ln in m.TEXT.splitlines()) for m in (lang_en, lang_pt)]
    assert set(tables[0]) == set(tables[1]) and len(tables[0]) == lang_pt.TEXT.count("\n")
    texts = list(tables[0].values()) + list(tables[1].values()) + [g[1] for g in U.GAMES]
    for text in texts:
        for ch in text:
            assert ch in font.chars and (font.width, font.height) == (6, 12), repr(ch)
    for table in tables:
        for key, text in table.items():
            assert U.strings("en" if table is tables[0] else "pt")[key] == text
            if not key.endswith("_text"):
                # %s is a seat (at most "Ban") or a list filled in by the screen
                assert len(text.replace("%d", "9").replace("%s", "P1")) <= 20, text
            elif key.startswith(("players_", "full", "unreadable", "newer", "exported", "end_round")):
                # a message screen's body: at most its 4 rows, with the longest name
                if key.startswith("players_"):
                    text += table["players_default_text"]
                body = text.replace("%d", "9").replace("%s", "Bartholomeu")
                assert len(U.wrap(body)) <= U.ROWS, text


def test_keys_on_a_result_screen_do_nothing_wrong():
    """Found by the monkey: NEXT on Ritos' result (no options) crashed."""
    dev = Device("macropad", capture=False, lang="en")
    ra_tour(dev, lambda name: None)
    for w in ("next", "prev", "3"):
        dev.press(w)
        assert dev.text()[0] == "Shared win"
    dev.press("ok")
    assert dev.app.ui.mode == U.MENU


# -- players' names (ALTAR_PLAYERS) -------------------------------------------------------------

def test_names_from_the_settings_show_and_go_into_the_journal():
    from device_driver import new_game, ritual
    dev = Device("macropad", capture=False, lang="en", players=" Ana, Bia,Caio ,Duda")
    new_game(dev, 4, 1)
    assert dev.text()[1:5] == ["%s . . . . . . . 0" % n for n in (" Ana", ">Bia", " Cai", " Dud")]
    ritual(dev, 2, 5)
    dev.press("undo")
    assert " ".join(dev.text()[1:]).strip() == "Caio won ritual 1 with 5"
    dev.press("ok")
    assert dev.text()[1:5] == ["1 Ana", "2 Bia", "3 Caio", "4 Duda"]     # numbered by their keys
    header = json.loads(dev.export().splitlines()[0])
    assert header["players"] == ["Ana", "Bia", "Caio", "Duda"]
    dev.players = ""             # the settings changed: the game keeps its names
    dev.boot()
    assert dev.app.ui.names == ["Ana", "Bia", "Caio", "Duda"]


def test_a_bad_players_setting_is_said_and_the_seats_stay_numbered():
    from device_driver import new_game
    for text, said in (("A,B,C,D,E", "5 names, at most 4."), ("Ana,,Bia", "Name 2 is empty."),
                       ("Ana,Ana", "Ana twice."), ("Bartholomew", "Bartholomew: at most 10"),
                       (",".join(["Ááááááááá" + c for c in "abcd"]), "4 names too long together"),
                       # with the P-numbers the other seats get, as the header holds them
                       ("ÁÁÁÁÁÁÁÁÁÁ,ÉÉÉÉÉÉÉÉÉÉ,ÍÍÍÍabcd", "3 names too long together"),
                       ("P3,Bia", "P3 twice.")):
        dev = Device("macropad", capture=False, lang="en", players=text)
        rows = dev.text()
        assert rows[0] == "Bad ALTAR_PLAYERS", text
        assert " ".join(rows[1:]).startswith(said) and "The seats are P1-P4." in " ".join(rows)
        dev.press("ok")
        assert dev.app.ui.mode == U.GAME
        new_game(dev, 3, 0)
        assert dev.app.ui.session.rules.players == ["P1", "P2", "P3"]


def test_the_longest_names_allowed_fit_the_journals_header():
    """A header with the most the setting allows (4 names, accents written
    as 6 JSON bytes each) and the longest game name and seed is one frame."""
    from altar_fw.settings import ROOM, player_names
    names = ",".join(["Ááááá" + c * 5 for c in "abcd"])
    assert ROOM - 6 < len(dumps(player_names(names))) <= ROOM      # the most it allows
    dev = Device("macropad", capture=False, lang="en", players=names, seed=2 ** 31 - 1)
    goto(dev, RITOS)
    goto(dev, value_of(dev, 4))
    goto(dev, value_of(dev, 3))
    assert dev.app.ui.session.rules.players[0] == "Áááááaaaaa"
    dev.boot()                           # read back from the journal
    assert dev.app.ui.session.rules.players[3] == "Áááááddddd"


def test_names_cut_to_fit_and_letters_the_font_lacks_fall_back():
    from device_driver import new_game
    from altar_fw.canvas import fold
    dev = Device("pico-display", capture=True, lang="pt", players="Mariana,Marta,Zoë")
    new_game(dev, 3, 2)
    ui = dev.app.ui
    assert ui.names == ["Mariana", "Marta", "Zoë"]
    assert ui.short == ["P1", "P2", "P3"]        # "Mar" twice: the seat numbers
    assert dev.text()[1:4] == [" P1  . . . . . . . 0", " P2  . . . . . . . 0",
                               ">P3  . . . . . . . 0"]
    dev.press("ok")
    goto(dev, 2)
    assert dev.text()[0] == "Zoë venceu com"
    canvas = dev.app.canvas
    assert canvas.font.chars.find("ë") < 0 and canvas.tile("ë") == canvas.tile("e")  # its letter
    assert fold("ë") == "e" and fold("õ") == "o" and fold("☃") == "?"
    assert canvas.tile("☃") == canvas.tile("?")
    dev.press("back")
    goto(dev, 0)                                 # Mariana won: her long name cut to fit
    assert dev.text()[0] == "Mariana venceu com"
    assert len(U.fit(dev.app.ui.T["move_to"], ("Bartholomeu",))) <= U.COLS


# -- Sete Selos: the power now, from the menu ---------------------------------------------------

def test_power_now_is_the_end_by_power_as_if_it_came_now():
    from altar_fw import sete_selos as ss
    from altar_fw.sete_selos import power_if_ended
    from device_driver import new_game, ritual
    dev = Device("macropad", capture=False, lang="en", players="Ana,Bia,Caio")
    new_game(dev, 3, 0)
    rng = random.Random(4)
    seen_removal = False
    while not dev.app.ui.session.state.over:
        ui = dev.app.ui
        st = ui.session.state
        if ui.mode != ss.BOARD:          # a redirect or a removal waits: no Power now
            dev.press("back")
            assert ui.mode == U.MENU and "Power now" not in [o[0] for o in ui.opts]
            dev.press("back")
            goto(dev, 0)                 # the first choice
            continue
        dev.press("back")                # the menu
        labels = [o[0] for o in ui.opts]
        assert labels[-1] == "Power now"
        goto(dev, len(labels) - 1)
        pw, winners, _, removed = power_if_ended(st)
        rows = dev.text()
        assert rows[0] == "Power if it ended"
        for seat in range(3):
            assert rows[1 + seat].split()[:2] == [ui.short[seat], str(pw[seat])]
            assert ("removes %d" % removed[seat] in rows[1 + seat]) == bool(removed[seat])
        seen_removal = seen_removal or any(removed)
        assert ui.screen.cursor == (winners[0] if winners else -1)    # the winner inverted
        dev.press("ok" if rng.random() < 0.5 else "back")
        assert ui.mode == ss.BOARD
        ritual(dev, rng.randrange(3), rng.randrange(1, 8))
    assert seen_removal
    dev.press("back")
    assert "Power now" not in [o[0] for o in dev.app.ui.opts]     # over: the result says it


@pytest.mark.parametrize("game,players", [(0, 4), (FANTASMAGORIA, 3), (RITOS, 3)])
def test_a_value_key_takes_the_option_whose_number_it_shows(game, players):
    """One rule for every list: on the MacroPad each option a value key
    picks shows its number first, no two share one, and key N takes the
    option numbered N wherever the list has scrolled (random games, value
    keys and arrows mixed)."""
    dev = Device("macropad", capture=False, lang="pt")
    press = dev.press
    checked = picked = 0

    def checked_press(word):
        nonlocal checked, picked
        ui = dev.app.ui
        want = None
        if word.isdigit() and ui.opts:
            want = [o[1] for o in ui.opts if o[2] == int(word)]
            chosen = []
            ui_chosen = ui._chosen
            ui._chosen = lambda v: (chosen.append(v), ui_chosen(v))
        press(word)
        if want is not None:
            del ui._chosen
            assert chosen == want, (word, want, chosen)
            picked += 1
        if ui.opts and not ui.told and not ui.notice:
            numbers = [o[2] for o in ui.opts if o[2]]
            assert len(numbers) == len(set(numbers)), ui.opts
            labels = {o[2]: o[0] for o in ui.opts if o[2]}
            for row in dev.text()[1:1 + len(ui.screen.lines)]:
                row = row.rstrip(" ↑↓")
                head, _, label = row.partition(" ")
                n = int(head.lstrip("+")) if head.lstrip("+").isdigit() else 0
                if n in labels:     # its number first, or a label that begins with it
                    assert labels[n].startswith(label) or labels[n].startswith(row), (row, ui.opts)
                else:
                    assert row.startswith("  ") or row not in [o[0] for o in ui.opts if o[2]], row
            checked += 1
    dev.press = checked_press
    random_game(dev, random.Random(25 + game), game, players)
    assert checked > 50 and picked > 10


def test_ritos_two_quick_oks_after_points_enter_points_again():
    """After a score the turn's choice still offers Points first: OK, OK
    is more points, never the end of the turn by haste."""
    dev = Device("feather-oled", capture=False, lang="pt")
    goto(dev, RITOS)
    goto(dev, value_of(dev, 3))
    goto(dev, value_of(dev, 0))
    dev.press("ok")
    goto(dev, value_of(dev, 0))
    goto(dev, value_of(dev, 3))          # P1 scores 3
    dev.press("ok")
    dev.press("ok")
    ui = dev.app.ui
    assert ui.mode != ra_screens.TURN and ui.session.state.turn == 0
    assert dev.text()[0] == U.fit(ui.T["points_q"], (ui.names[0],))


def back_steps(dev, steps):
    """Each (action, title) of `steps`: do it, and the screen's title is
    then `title`; then BACK goes through the titles in reverse."""
    titles = []
    for act, title in steps:
        act()
        assert dev.text()[0] == title, (title, dev.text())
        titles.append(title)
    for title in reversed(titles[:-1]):
        dev.press("back")
        assert dev.text()[0] == title, (title, dev.text())


def test_back_steps_back_one_question_in_every_game():
    """One rule for BACK: one question back within an entry; from its
    first question, the board."""
    dev = Device("macropad", capture=False, lang="en")
    T = dev.app.ui.T
    from device_driver import new_game
    new_game(dev, 3, 0)
    board = dev.text()[0]
    back_steps(dev, [(lambda: dev.press("ok"), T["winner_q"] % 1),
                     (lambda: dev.press("2"), U.fit(T["won_with"], ("P2",)))])
    dev.press("back")
    assert dev.text()[0] == board
    # Fantasmagória: trump, leader; the board's choice, possession seat, its number
    dev = Device("macropad", capture=False, lang="en")
    goto(dev, FANTASMAGORIA)
    goto(dev, value_of(dev, 4))
    back_steps(dev, [(lambda: None, T["trump_q"]), (lambda: dev.press("5"), T["leader_q"])])
    assert dev.app.ui.opts[dev.app.ui.sel][1] == 5        # back on the trump chosen
    dev.press("5")
    dev.press("1")
    board = dev.text()[0]
    back_steps(dev, [(lambda: dev.press("ok"), board), (lambda: dev.press("2"), T["poss_q"]),
                     (lambda: dev.press("3"), U.fit(T["poss_num"], ("P3",)))])
    dev.press("back")
    assert dev.text()[0] == board and dev.app.ui.mode == fa_screens.BOARD
    # the piles: a seat's ghosts go back to the last seat's cursed cards
    dev.press("ok")
    dev.press("3")                       # end round
    back_steps(dev, [(lambda: None, U.fit(T["ghosts_q"], ("P1",))),
                     (lambda: dev.press("1"), U.fit(T["cursed_q"], ("P1",))),
                     (lambda: goto(dev, value_of(dev, 9)), U.fit(T["ghosts_q"], ("P2",)))])
    # Ritos Ancestrais: points back to the turn's choice, a hand count to the last one
    dev = Device("macropad", capture=False, lang="en")
    goto(dev, RITOS)
    goto(dev, value_of(dev, 2))
    goto(dev, value_of(dev, 0))
    turn = dev.text()[0]
    back_steps(dev, [(lambda: dev.press("ok"), turn), (lambda: dev.press("1"),
                                                        U.fit(T["points_q"], ("P1",)))])
    dev.press("back")
    assert dev.app.ui.mode == ra_screens.TURN


def test_a_list_longer_than_the_screen_shows_where_more_rows_wait():
    dev = Device("pico-display", capture=False, lang="en")
    ui = dev.app.ui
    goto(dev, RITOS)
    goto(dev, value_of(dev, 3))
    goto(dev, value_of(dev, 0))
    dev.press("ok")
    goto(dev, value_of(dev, 0))          # points: 16 options, 4 rows
    rows = dev.text()[1:5]
    assert rows[3].endswith("↓") and not rows[0].endswith("↑")
    for _ in range(6):
        dev.press("next")
    rows = dev.text()[1:5]
    assert rows[0].endswith("↑") and rows[3].endswith("↓") and len(rows[0]) == U.COLS
    assert ui.opts[ui.sel][0] in rows[ui.screen.cursor]


def test_four_players_see_the_boards_legend_until_the_first_key():
    """No row is free for the legend with 4 players: the first board's title."""
    from device_driver import new_game
    dev = Device("feather-oled", capture=False, lang="pt")
    new_game(dev, 4, 0)
    assert dev.text()[0] == dev.app.ui.T["board_legend"]
    dev.press("ok")
    dev.press("back")
    assert dev.text()[0].startswith("R1")
