"""The device, emulated: whole games by key presses on every board, golden
screens, power cuts at every byte of every journal write, monkeys, and the
journal's flash rules."""

import os
import random
import subprocess
import sys

import pytest

from altar import log
from altar_fw import sete_selos as screens
from altar_fw import ui as U
from altar_host.device.emulator import Device, FlashNVM, png_pixels
from conftest import HERE, ROOT, journaled
from device_driver import BOARDS, goto, new_game, play, read_on, redirect, remove, ritual

GOLDEN = os.path.join(HERE, "golden", "screens")
# ALTAR_PLAYERS as a table sets it: none, 4 names, fewer names than seats
# (spaces around them, letters the font lacks).
NAMES = ("", "Ana,Bia,Caio,Duda", "Zoë, Inês ,João")


def board_text_matches(dev):
    """The board screen says what the engine holds: a row a seat under a
    header of the Elders' values, each cell that seat's cultists there."""
    ui = dev.app.ui
    v = ui.session.view()
    rows = dev.text()
    if ui.notice:
        return
    assert rows[0] == "%-5s1 2 3 4 5 6 7 %s" % ("R%d" % min(v["ritual"] + 1, 21), ui.T["ins_col"])
    seats = ui.session.rules.seats
    revealed = sum(1 << (5 + 2 * e) for e in range(7) if v["elders"][e]["revealed"])
    for seat in range(seats):
        row = rows[1 + seat]
        assert (row[0] == ">") == (seat == v["leader"]), rows
        assert row[1:4].strip() == ui.short[seat]
        assert row[19] == str(v["insanity"][seat]), rows
        for e in range(7):
            k = v["elders"][e]["cultists"][seat]
            assert row[5 + 2 * e] == (str(k) if k else "."), (e, rows)
        assert dev.app.canvas.shown[1 + seat][1] == revealed
    if ui.session.rules.banished >= 0 and v["ritual"] % 7 == 0 and v["ritual"] < 21:
        # a 2-player series about to start: who is its first player
        assert rows[4] == U.fit(ui.T["first_player"], (ui.names[v["first_player"]],))
    elif seats < 4:
        assert rows[4] == ui.T["board_legend"]


def replays_to_the_same_result(dev):
    text = dev.export()
    again = log.load(text.splitlines())
    assert again.view() == dev.app.ui.session.view()
    return text


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", BOARDS)
def test_whole_game_by_key_presses(board, players):
    rng = random.Random(players * 7 + BOARDS.index(board))
    lang = ("pt", "en")[(players + BOARDS.index(board)) % 2]    # both on every board
    names = NAMES[(players + BOARDS.index(board)) % len(NAMES)]
    dev = Device(board, capture=False, lang=lang, players=names)
    new_game(dev, players, rng.randrange(players), shortcut=True)
    header = [n.strip() for n in names.split(",")] if names else []
    assert dev.app.ui.session.rules.players == \
        (header + ["P%d" % (i + 1) for i in range(len(header), 4)])[:players]
    undos = reboots = visits = 0
    while not dev.app.ui.session.state.over:
        ui = dev.app.ui
        st = ui.session.state
        if ui.mode == screens.BOARD:
            board_text_matches(dev)
            visits += 1
            r = {3: 0, 5: 0.08}.get(visits, rng.random())
            if r < 0.06 and ui.session.history:
                before = len(ui.session.history)
                undone = ui.session.mod.unparse(ui.session.history[-1])
                dev.press("undo")
                assert dev.text()[0] == ui.T["undone"]      # and what, on the rows under it
                assert " ".join(r for r in dev.text()[1:] if r) == ui.play.said(undone)
                assert len(dev.app.ui.session.history) == before - 1
                dev.tick(3100)                   # then the game's own screen
                assert not ui.notice
                board_text_matches(dev)
                undos += 1
            elif r < 0.1:
                view = ui.session.view()
                dev.boot()     # unplugged and plugged in again
                assert dev.text()[0] == ui.T["resumed"] and dev.app.ui.session.view() == view
                reboots += 1
            else:
                ritual(dev, rng.randrange(st.rules.seats), rng.randrange(1, 8), rng.random() < 0.5,
                       read=False)
        elif ui.mode == U.INFO:
            # what the board does not say, on a screen of its own
            T = ui.T
            if st.wait:         # the winner's Elder was revealed: +1 insanity, a redirect
                v = ui.play.value
                assert st.rev >> (v - 1) & 1 and dev.text()[0] == T["revealed"] % v
                assert " ".join(dev.text()[1:]).startswith(ui.names[st.wseat])
                visits += 1
            else:               # a new series, and who deals it
                assert st.ritual % 7 == 0 and dev.text()[0] == T["series"] % (st.ritual // 7 + 1)
                assert ui.names[st.first] in " ".join(dev.text()[1:])
            dev.press("ok")
        elif ui.mode == screens.REDIRECT:
            # the screen follows the engine's wait codes, which the device reads itself
            assert ui.session.view()["awaiting"] == {"do": "redirect", "seat": st.wseat}
            assert dev.text()[0] == U.fit(ui.T["move_to"], (ui.names[st.wseat],))
            redirect(dev, rng.choice([o[1] for o in ui.opts]), rng.random() < 0.5, read=False)
        else:
            assert ui.mode == screens.REMOVE, dev.text()
            assert ui.session.view()["awaiting"] == {"do": "remove", "seat": st.wseat,
                                                     "count": st.wcount}
            assert dev.text()[0] == U.fit(ui.T["removes"], (ui.names[st.wseat], st.wcount))
            assert ("*" + ui.T["elder_abbr"]) in dev.text()[1]    # the engine's suggestion, first
            remove(dev, 0 if rng.random() < 0.7 else rng.randrange(len(ui.opts)))
    v = dev.app.ui.session.view()
    title = dev.text()[0]
    T = dev.app.ui.T
    if v["winners"]:
        assert title == U.fit(T["wins"], (dev.app.ui.names[v["winners"][0]],))
    else:
        assert title == T["no_winner"]
    if v["reason"] == "power":
        assert dev.text()[1].startswith(T["power"])
    assert undos and reboots
    replays_to_the_same_result(dev)


# -- a fixed game that reaches every screen -------------------------------------------

def tour_game():
    """A 3-player quick-entry game with redirects, removals and a power end
    whose tie an Elder breaks (found once by searching seeds)."""
    from altar.core import Session
    from altar.sete_selos import removals
    from altar_host.sim.randomplay import sete_selos_game
    for seed in range(500):
        h, actions = sete_selos_game(3, seed, quick=100)
        s = Session(h)
        listed = True
        for a in actions:
            if a["do"] == "remove":
                st = s.state
                shown = removals(st.stacks(a["seat"]), st.wcount, st.rules.power)
                listed = listed and sorted(a["elders"]) in [e for _, e in shown]
            s.do(a)
        if not listed:
            continue
        verbs = {a["do"] for a in actions}
        if s.state.reason == "power" and s.state.decider > 0 and {"redirect", "remove"} <= verbs:
            return h, actions
    raise AssertionError("no such game in 500 seeds")


TOUR = tour_game()


def two_player_game():
    """The bundled 2-player example (three series; the Banished wins series
    1's last ritual, so the first player moves) as the device enters it:
    each ritual by its winner and value."""
    import json
    from altar.core import Session
    from altar.sete_selos_cards import ritual_winner
    from altar_host.cli import EXAMPLES
    with open(os.path.join(EXAMPLES, "sete-selos-2p.jsonl"), encoding="utf-8") as f:
        lines = [json.loads(ln) for ln in f]
    s = Session(lines[0])
    out = []
    for a in lines[1:]:
        if "cards" in a:
            cards = [tuple(c) for c in a["cards"]]
            w = ritual_winner(cards)
            a = {"do": "ritual", "winner": s.state.after(s.state.leader, w), "value": cards[w][1]}
        s.do(a)
        out.append(a)
    return lines[0], out


def play_two_player_game(dev, shot=None):
    """two_player_game by keys; shot(n) at the board before series n."""
    h, actions = two_player_game()
    new_game(dev, 2, h["first"])
    for a in actions:
        st = dev.app.ui.session.state
        if shot and a["do"] == "ritual" and st.ritual % 7 == 0:
            shot(st.ritual // 7 + 1)
        play(dev, a)


def tour(dev, shots=None, shortcut=False):
    """Play TOUR by keys; shots(name) is called at each screen's first sight;
    shortcut: options taken by their number keys where the board has them."""
    h, actions = TOUR
    seen = set()

    def shot(name):
        if shots and name not in seen:
            seen.add(name)
            shots(name)
    shot("new-game")
    dev.press("ok")
    shot("players")
    goto(dev, [o[1] for o in dev.app.ui.opts].index(3), shortcut)
    goto(dev, h["first"], shortcut)
    for i, a in enumerate(actions):
        if a["do"] == "ritual" and i > 12:
            shot("board")
            dev.press("ok")
            shot("winner")
            goto(dev, a["winner"], shortcut)
            shot("value")
            goto(dev, a["value"] - 1, shortcut)
            ui = dev.app.ui
            if ui.mode == U.INFO:
                shot("revealed" if ui.session.state.wait else "series")
            read_on(dev)
            continue
        if a["do"] == "redirect":
            shot("redirect")
        elif a["do"] == "remove":
            shot("remove")
        play(dev, a, shortcut)
    shot("over")
    dev.press("ok")
    shot("menu")


@pytest.mark.parametrize("board", BOARDS)
def test_golden_screens(board):
    """PNGs of the main screens; ALTAR_REGEN=1 rewrites them (look at them)."""
    dev = Device(board)
    got = {}
    tour(dev, lambda name: got.__setitem__(name, dev.png()))
    assert sorted(got) == sorted(["new-game", "players", "board", "winner", "value", "revealed",
                                  "redirect", "series", "remove", "over", "menu"])
    os.makedirs(GOLDEN, exist_ok=True)
    for name, data in sorted(got.items()):
        path = os.path.join(GOLDEN, "%s-%s.png" % (board, name))
        if os.environ.get("ALTAR_REGEN"):
            with open(path, "wb") as f:
                f.write(data)
        with open(path, "rb") as f:
            assert png_pixels(f.read()) == png_pixels(data), path


@pytest.mark.parametrize("board", BOARDS)
def test_two_players_over_three_series_name_each_first_player(board):
    """Before each series the board says who is first player: P2 (the
    header's), then P1, to the Banished's right when it won series 1's last
    ritual, then P1 again; the game is the engine's, action for action."""
    dev = Device(board, capture=False, lang="en")
    said = []
    play_two_player_game(dev, lambda n: said.append(dev.text()[4]))
    assert said == ["First player: P2", "First player: P1", "First player: P1"]
    h, actions = two_player_game()
    from altar.core import Session
    engine = Session(h)
    for a in actions:
        engine.do(a)
    assert dev.app.ui.session.view() == engine.view() and engine.state.over
    replays_to_the_same_result(dev)


def test_tour_over_screen_shows_the_tie_break():
    dev = Device("macropad", capture=False)
    tour(dev)
    dev.press("back")          # the menu's back: to the result again
    st = dev.app.ui.session.state
    assert dev.app.ui.T["tie_elder"] % st.decider in dev.text()
    replays_to_the_same_result(dev)


# -- power cuts ---------------------------------------------------------------------------

def test_power_cut_while_writing_a_new_game():
    """A cut while the new game's header is written leaves the new-game
    screen (the per-action cuts of every game: test_device_games.py)."""
    h, actions = TOUR
    for k in range(0, 100, 7):
        dev = Device("feather-oled", capture=False)
        dev.press("ok")
        goto(dev, [o[1] for o in dev.app.ui.opts].index(3))
        dev.nvm.cut_after = k
        goto(dev, h["first"])
        if dev.cuts:
            assert dev.app.ui.session is None and dev.app.ui.mode == U.GAME
        else:
            assert dev.app.ui.session.rules.seats == 3
    assert dev.nvm.erases == 0      # a fresh sector: the header only programs


def test_a_full_journal_is_compacted():
    """A 260-byte journal fills up within a game: the kept actions are
    rewritten (one erase) and the game goes on and replays the same."""
    h, actions = TOUR
    dev = Device("macropad", nvm=FlashNVM(size=260), capture=False)
    new_game(dev, 3, h["first"])
    for a in actions:
        play(dev, a)
        if a["do"] == "ritual":
            dev.press("undo")
            play(dev, a)
    assert dev.nvm.erases > 1
    view = dev.app.ui.session.view()
    dev.boot()
    assert dev.app.ui.session.view() == view
    replays_to_the_same_result(dev)


def test_a_game_too_big_for_the_journal_plays_on_and_says_so():
    h, actions = TOUR
    dev = Device("macropad", nvm=FlashNVM(size=120), capture=False)
    new_game(dev, 3, h["first"])
    for a in actions[:12]:
        if dev.app.ui.mode == U.INFO:
            assert dev.text()[0] == dev.app.ui.T["full"]
            dev.press("ok")
        play(dev, a)
    assert dev.app.ui.session.state.ritual >= 10


def test_journal_garbage_and_bad_header_lose_nothing():
    dev = Device("macropad", nvm=FlashNVM(), capture=False)
    dev.nvm.data[0:5] = b"\x03abc\x00"          # a header frame with a bad check
    dev.boot()
    assert dev.app.ui.mode == U.GAME and dev.text()[0] == dev.app.ui.T["no_game"]
    from altar_fw import journal
    f = journal.frame(b'{"altar": 2}')
    dev.nvm.data[0:len(f)] = f
    dev.boot()
    assert dev.text()[0] == dev.app.ui.T["unreadable"]
    assert bytes(dev.nvm.data[0:len(f)]) == f     # nothing erased until a new game


@pytest.mark.parametrize("game,players,seed", [("sete-selos", 3, 4), ("fantasmagoria", 4, 9),
                                               ("ritos-ancestrais", 4, 2)])
def test_boot_replays_undos_once_to_the_same_game(game, players, seed):
    """Boot plays the records an UNDO frame did not take back, once: the
    same state and history as playing every frame in turn, undos included
    (each of which replays the whole game), and nothing else refused."""
    from altar_fw import journal
    from altar_host.sim import randomplay
    gen = {"sete-selos": randomplay.sete_selos_game, "fantasmagoria": randomplay.fantasmagoria_game,
           "ritos-ancestrais": randomplay.ritos_game}[game]
    h, actions = gen(players=players, seed=seed, undo=50)
    assert sum(1 for a in actions if a["do"] == "undo") > 10
    nvm = bytearray(b"\xff" * 16384)
    s = journaled(nvm, h, actions + [{"do": "undo"}] * 3)[1]
    again, skipped = journal.Store(nvm).load()
    assert (again.view(), skipped) == (s.view(), 0)
    assert [tuple(t) for t in again.history] == [tuple(t) for t in s.history]
    nvm[:] = b"\xff" * len(nvm)           # an UNDO with nothing before it is refused
    store = journal.Store(nvm)
    store.new(h)
    store.undid()
    assert journal.Store(nvm).load()[1:] == (1,)


# -- monkeys -------------------------------------------------------------------------------

# Key words that start each game before the monkey takes over.
STARTS = {"sete-selos": "ok", "fantasmagoria": "next ok next ok",
          "ritos-ancestrais": "next next ok ok ok"}


def test_monkeys_10000_presses_per_board_and_game(tmp_path):
    """10,000 random presses on each board in each game (parallel processes):
    no exception, and the journal exports a log of that game that replays.
    One more run cuts the power at random during flash writes."""
    runs = [(b, g, 10000, 0) for b in BOARDS for g in sorted(STARTS)]
    runs.append(("macropad", "sete-selos", 2000, 0.3))
    procs = []
    for i, (board, game, n, cut) in enumerate(runs):
        out = tmp_path / ("%d.jsonl" % i)
        keys = tmp_path / ("%d.keys" % i)
        keys.write_text(STARTS[game] + "\n")
        cmd = [sys.executable, "-m", "altar_host.cli", "emulate", "--board", board, "--monkey",
               str(n), "--seed", str(i), "--export", str(out), "--keys", str(keys)]
        if cut:
            cmd += ["--power-cut", str(cut)]
        procs.append((out, game, subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                  cwd=ROOT)))
    games = []
    for out, game, p in procs:
        so, se = p.communicate(timeout=900)
        assert p.returncode == 0, se.decode()[-2000:]
        with open(out, "rb") as f:
            session = log.load(f)
        games.append(session.header["game"])
    # a monkey may start another game from the menu; each game still ends some run
    assert set(games) == set(STARTS)


# -- the view-model and the journal on every VM --------------------------------------------

@pytest.mark.parametrize("game,players,seed,cut", [
    (0, 2, 1, 0), (0, 3, 5, 0), (0, 4, 9, 0), (1, 3, 2, 0), (1, 4, 3, 0), (2, 2, 4, 0),
    (2, 4, 6, 0), (0, 4, 9, 15), (1, 3, 2, 15), (2, 3, 7, 15)])
def test_view_model_and_journal_on_every_vm(vm, game, players, seed, cut):
    """Whole games through the Ui and a flash-rules journal print the same
    bytes on CPython and on each VM (the budget is measured by
    tools/bench/bench_device.py); with `cut`, power cuts strike that share of the
    flash writes and every boot resumes the game as it was before the key."""
    from conftest import vm_run
    args = [os.path.join(HERE, "vm_device.py"), str(game), str(players), str(seed), str(cut)]
    cp = vm_run("cpython", args)
    other = vm_run(vm, args)
    assert cp[0] == 0, cp[2].decode()
    assert other[0] == 0 and other[2] == b"", other[2].decode()
    assert cp[1] == other[1]
    out = cp[1].decode()
    assert "replay same=True" in out and "reboot same=True" in out
    assert "same=False" not in out and "skipped=0" in out
    assert ("torn=0" in out) == (not cut) and ("cut same=True" in out) == bool(cut)
    assert "vence!" in out or "pelo espírito" in out or "Sem vencedor" in out or "Vitória dividida" in out


def test_a_chosen_games_modules_load_once_its_next_screen_is_shown(monkeypatch):
    """Choosing a game leaves its modules to the Ui's idle(), which the app
    runs after the glass: the press that starts the game does not load
    them (about 0.1 s on a board)."""
    dev = Device("feather-oled", capture=False)
    ui = dev.app.ui
    loaded = []
    real = U.play_class

    def counted(game):
        loaded.append((game, dev.text()[0], ui.loading))
        return real(game)
    monkeypatch.setattr(U, "play_class", counted)
    dev.press("next")                          # Fantasmagória
    dev.press("ok")
    assert loaded == [("fantasmagoria", ui.T["how_many"], "fantasmagoria")]
    assert ui.loading is None and ui.session is None
    dev.press("back")                          # the list again: Sete Selos
    goto(dev, 0)
    assert loaded[-1] == ("sete-selos", ui.T["how_many"], "sete-selos")


def test_screens_are_tile_grids_over_the_font_built_once():
    """No label objects and no bitmap of the screen: TileGrids over the
    font's one strip of glyphs, each with a 2-colour palette, and one for
    the big number (in a group of scale 3). A mono screen is one grid for
    every row; a colour one (240x135, drawn at scale 2) a grid per row, its
    palette tinting it. The selection moves by inverted tiles, not by a new
    object or a palette."""
    for board in BOARDS:
        dev = Device(board, capture=False)
        c = dev.app.canvas
        layers = list(c.group)
        assert layers[-1] is c.big_group
        rows = layers[:-1]
        assert len(rows) == (c.rows if c.colour else 1)
        assert [g.height for g in rows] == [1 if c.colour else c.rows] * len(rows)
        grids = rows + list(c.big_group)
        assert set(map(id, c.grids)) == set(map(id, grids))
        assert all(len(g.pixel_shader) == 2 for g in grids)
        assert {id(g.bitmap) for g in grids} == {id(c.font.bitmap)}
        assert (c.cols, c.rows) in ((21, 5), (20, 5))
        palettes = [list(p) for p in c.palettes]
        cursor = [inv for _, inv in c.shown].index(-1, 1)
        dev.press("next")
        assert list(c.group) == layers and [list(p) for p in c.palettes] == palettes
        assert c.shown[cursor][1] != -1 and c.shown[cursor + 1][1] == -1
        g, at = c.grids[cursor + 1], c.first[cursor + 1]
        assert all(g[at + k] >= c.inverted for k in range(c.cols))


def test_altar_dump_reads_a_serial_capture_back_into_a_log(tmp_path, capsys):
    from altar_fw.journal import MARK
    from altar_host.cli import main
    dev = Device("pico-display", capture=False)
    h, actions = TOUR
    new_game(dev, 3, h["first"])
    for a in actions[:6]:
        play(dev, a)
    del dev.serial[:]
    dev.app.store.export()
    capture = tmp_path / "serial.txt"
    capture.write_text("Auto-reload is off.\ncode.py output:\n" + "".join(dev.serial) + ">>> \n")
    out = tmp_path / "game.jsonl"
    assert main(["dump", str(capture), "-o", str(out)]) == 0
    with open(out, "rb") as f:
        assert log.load(f).view() == dev.app.ui.session.view()
    # As the Pico's console sends it: the status bar's title, with no newline,
    # before the first line, and each "\n" as "\r\r\n" (seen in rp2040js)
    title = "\x1b]0;\U0001f40dcode.py | 10.3.0\x1b\\\x1b[2K\x1b[0G"
    capture.write_text("code.py output:\r\n" + title + "".join(dev.serial).replace("\n", "\r\r\n"))
    assert main(["dump", str(capture), "-o", str(out)]) == 0
    with open(out, "rb") as f:
        assert log.load(f).view() == dev.app.ui.session.view()
    # The capture stopped early, in the export's last line: the whole lines
    # are read, and dump says what it dropped (issue 43).
    cut = "".join(dev.serial)
    last = cut.rindex("\n", 0, cut.rindex("\n", 0, cut.rindex("\n"))) + 1
    cut = cut[:last + 12]                                   # the last action's first 12
    capture.write_text(cut)
    capsys.readouterr()
    assert main(["dump", str(capture), "-o", str(tmp_path / "x.jsonl")]) == 0
    err = capsys.readouterr().err
    assert "altar dump: the export was cut short (the capture stopped, or the board " \
        "restarted): read its first 6 lines, dropped 1\n" in err
    with open(tmp_path / "x.jsonl", "rb") as f:
        assert len(f.read().splitlines()) == 6
    # The board restarted in the middle of an export, then streamed on: the
    # export's whole lines and every action after them.
    lines = "".join(dev.serial).splitlines()
    streamed = "".join("%s%s\r\n" % (MARK, ln) for ln in lines[-2:-1] * 3)
    capture.write_text(cut + "\r\n" + streamed)
    assert main(["dump", str(capture), "-o", str(tmp_path / "y.jsonl")]) == 0
    assert "read its first 6 lines, dropped 1, then 3 lines the board streamed after it" \
        in capsys.readouterr().err
    with open(tmp_path / "y.jsonl", "rb") as f:
        assert len(f.read().splitlines()) == 9
    capture.write_text(lines[0] + "\n" + lines[1][:5])    # not even a header
    assert main(["dump", str(capture), "-o", str(tmp_path / "x.jsonl")]) == 2
    assert "cut short before its header" in capsys.readouterr().err
    capture.write_text("hello\n")
    assert main(["dump", str(capture), "-o", str(tmp_path / "x.jsonl")]) == 2


def test_emulate_scripted_keys_screens_and_export(tmp_path, capsys):
    from altar_host.cli import main
    keys = tmp_path / "keys.txt"
    keys.write_text("# a 2-player game, two rituals\nok ok ok   # Sete Selos, 2 players, P1\n"
                    "ok ok 3   ok next ok 5\nundo wait:500 reboot\n")
    shots = tmp_path / "shots"
    out = tmp_path / "game.jsonl"
    nvm = tmp_path / "flash.bin"
    assert main(["emulate", "--board", "macropad", "--keys", str(keys), "--screens", str(shots),
                 "--export", str(out), "--nvm", str(nvm)]) == 0
    pngs = sorted(os.listdir(shots))
    assert len(pngs) == 14 and pngs[0] == "0001-boot.png" and pngs[-1] == "0014-reboot.png"
    # the serial console (the live stream: each journaled line), then the last screen
    out_text = capsys.readouterr().out
    streamed, _ = out_text.split("Retomado\n")
    assert streamed.splitlines() == [
        'ALTAR> {"altar": 1, "first": 0, "game": "sete-selos", "players": ["P1", "P2"], '
        '"seed": 0}', 'ALTAR> {"do": "ritual", "value": 3, "winner": 2}',
        'ALTAR> {"do": "ritual", "value": 5, "winner": 0}', 'ALTAR> {"do": "undo"}']
    with open(out, "rb") as f:
        s = log.load(f)
    assert [a["do"] for a in s.actions()] == ["ritual"] and os.path.getsize(nvm) == 4096
    bad = tmp_path / "bad.txt"
    bad.write_text("ok 9\n")
    assert main(["emulate", "--board", "feather-oled", "--keys", str(bad)]) == 2
