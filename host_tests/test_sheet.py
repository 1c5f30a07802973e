"""`altar sheet`: the game sheet of a session log. Its figures are the
engine's (checked against the golden transcripts), its pictures real PNGs,
a refused log writes nothing, cut games and undos work, both languages use
the device's words; `altar dump --sheet` writes it too."""

import base64
import html
import json
import os
import re
import subprocess

import pytest
from PIL import Image

from altar.core import Session
from altar_fw.journal import BEGIN, END
from altar_fw.ui import strings
from altar_host.cli import main
from altar_host.sim.randomplay import ritos_game, sete_selos_game
from altar_host.sheet_facts import facts
from altar_host.sheet_text import Words
from conftest import chromium
from test_golden import GAMES, paths
import logcases


def transcript(name):
    """The golden transcript's (action, view) pairs."""
    with open(paths(name)[1], encoding="utf-8") as f:
        lines = f.read().splitlines()
    return [(json.loads(a), json.loads(v[3:])) for a, v in zip(lines[::2], lines[1::2])]


def sheet(tmp_path, log_text, *args, name="game"):
    """Write the log and its sheet; (exit code, page text or None, PNG paths)."""
    log_path = tmp_path / (name + ".jsonl")
    log_path.write_bytes(log_text)
    code = main(["sheet", str(log_path)] + list(args))
    page = tmp_path / (name + ".html")
    text = page.read_text(encoding="utf-8") if page.exists() else None
    return code, text, sorted(tmp_path.glob(name + "-*.png"))


def example(name):
    with open(paths(name)[0], "rb") as f:
        return f.read()


def check_png(path, ink=0.05):
    """A real picture with something drawn: many colours, and at least
    `ink` of it not white (a page of text has less than a chart)."""
    with Image.open(path) as im:
        assert im.format == "PNG", path
        rgb = im.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20)
    assert len(colours) > 10, path
    white = sum(n for n, c in colours if c == (255, 255, 255))
    assert white < (1 - ink) * rgb.size[0] * rgb.size[1], path


def text_of(page):
    """The page as a person reads it: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def rows(page):
    """Each table row's cells as text."""
    return [[text_of(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r)]
            for r in re.findall(r"<tr[^>]*>(.*?)</tr>", page)]


def row_of(page, *first):
    """The cells of the table rows that start with these cells."""
    return [r for r in rows(page) if r[:len(first)] == list(first)]


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """name -> (page, PNG paths, the transcript's (action, view) pairs, the
    players' names) for each golden game."""
    out = {}
    for name in GAMES:
        tmp = tmp_path_factory.mktemp(name)
        code, page, pngs = sheet(tmp, example(name))
        assert code == 0
        steps = transcript(name)
        out[name] = page, pngs, steps, json.loads(example(name).splitlines()[0])["players"]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_picture_is_a_real_png_and_embedded(golden, name):
    page, pngs, _, _ = golden[name]
    embedded = re.findall(r'<img src="data:image/png;base64,([^"]+)"', page)
    assert pngs and len(embedded) == len(pngs)
    for p in pngs:
        check_png(p)
    assert {base64.b64decode(e) for e in embedded} == {p.read_bytes() for p in pngs}
    assert not re.search(r'src="(?!data:)', page)       # self-contained
    assert not re.search(r"%[+]?[sd]", text_of(page))  # every label's slot filled


def test_sete_selos_figures_are_the_engines(golden):
    page, _, steps, names = golden["sete-selos-4p"]
    final = steps[-1][1]
    assert strings("pt")["wins"] % names[final["winners"][0]] in text_of(page)
    rituals = [r for r in rows(page) if len(r) == 7 and r[0].isdigit()]
    assert [int(r[0]) for r in rituals] == list(range(1, final["ritual"] + 1))
    # each ritual's winner (who leads next with 4 players) and insanity gained
    after = [v for a, v in steps if a["do"] == "ritual"]
    for r, v in zip(rituals, after):
        seat = names.index(r[3])
        assert v["leader"] == seat
        assert r[6] == "" or r[6].endswith("→ %d" % v["insanity"][seat])
    for seat, p in enumerate(final["power"]):
        row = row_of(page, names[seat])[-1]
        assert row[1] == str(final["insanity"][seat]) and row[-1] == str(p)
    assert "Sem empate no poder." in text_of(page)


def test_fantasmagoria_figures_are_the_engines(golden):
    page, _, steps, names = golden["fantasmagoria-4p"]
    final = steps[-1][1]
    ends = [v for a, v in steps if a["do"] == "end-round"]
    for seat, name in enumerate(names):
        piles = row_of(page, name)          # a pile row a round, in order
        # the round's scares (after "=", if spelled out) and the track after it
        assert [int(r[-2].split("= ")[-1]) for r in piles] == [
            v["rounds"][i][seat] for i, v in enumerate(ends)]
        assert [int(r[-1]) for r in piles] == [v["scares"][seat] for v in ends]
    assert final["spirit"] and strings("pt")["spirit"] in text_of(page)
    assert strings("pt")["wins"] % names[final["winners"][0]] in text_of(page)


def test_ritos_ancestrais_figures_are_the_engines(golden):
    page, _, steps, names = golden["ritos-ancestrais-3p"]
    final = steps[-1][1]
    for seat, name in enumerate(names):
        assert row_of(page, name, str(final["scores"][seat]), str(final["hands"][seat]))
    turns = [r for r in rows(page) if len(r) == 3 + len(names) and r[0].isdigit()]
    scores = [v["scores"] for a, v in steps if a["do"] == "end-turn"]
    assert [[int(x) for x in r[3:]] for r in turns] == scores
    # the turn that reached 21: the first whose scores hold 21 or more
    reached = 1 + [max(x) >= 21 for x in scores].index(True)
    assert "chegou a 21 no turno %d" % reached in text_of(page)
    assert strings("pt")["wins"] % names[final["winners"][0]] in text_of(page)


# (players, seed) of random games ending each way, and what the sheet says
ENDINGS = [
    (3, 3, lambda st, T: T["tie_elder"] % st.decider),          # a tie broken on an Elder
    (3, 62, lambda st, T: T["tie_all"]),                        # tied on every Elder
    (3, 62, lambda st, T: "Empate em 18 de poder entre P1, P3."),
    (2, 21, lambda st, T: T["no_tie"]),                         # the Banished removes too
    (4, 0, lambda st, T: "chegou a %d de insanidade" % st.ins[st.winners[0]]),
    (4, 2, lambda st, T: "tem 3 cultistas num só Ancião (vitória com 3)"),
    (3, 2, lambda st, T: "cultistas nos seus 2 Anciões mais cheios (vitória com 6)"),
    (2, 0, lambda st, T: "Cultista Banido tem 4 cultistas nos Anciões (vitória com 4)"),
]


@pytest.mark.parametrize("players,seed,says", ENDINGS,
                         ids=["%dp-seed%d" % (p, s) for p, s, _ in ENDINGS])
def test_how_sete_selos_ended(players, seed, says, tmp_path):
    h, a = sete_selos_game(players, seed, quick=50)
    s = Session(h)
    for x in a:
        s.do(x)
    code, page, _ = sheet(tmp_path, logcases.text(h, *a))
    assert code == 0
    words = text_of(page)
    assert says(s.state, Words("pt")) in words
    if s.state.reason == "power":
        for seat, p in enumerate(s.state.powers):
            assert row_of(page, (h["players"] + ["Cultista Banido"])[seat])[-1][-1] == str(p)
    else:
        assert strings("pt")["immediate"] in words


@pytest.mark.parametrize("seed,says", [
    (23, "Empate em 23 pontos entre P2, P3: desempate por cartas na mão, P2 com 5."),
    (79, "Empate em pontos e em cartas na mão: P2, P3 dividem a vitória."),
], ids=["tie-break", "shared"])
def test_how_ritos_ancestrais_ended(seed, says, tmp_path):
    h, a = ritos_game(3, seed)
    code, page, _ = sheet(tmp_path, logcases.text(h, *a))
    assert code == 0 and says in text_of(page)
    if seed == 79:
        assert strings("pt")["shared"] in text_of(page)


@pytest.mark.parametrize("case", ["not-json-action", "empty-file", "unknown-verb",
                                  "value-out-of-range", "invalid-utf8"])
def test_a_refused_log_writes_nothing(case, tmp_path, capsys):
    data, line, fragment = logcases.ERRORS[case]
    code, page, pngs = sheet(tmp_path, data)
    assert code == 2 and page is None and pngs == []
    assert os.listdir(tmp_path) == ["game.jsonl"]
    err = capsys.readouterr().err
    assert err.startswith("line %d: " % line) and fragment in err


# Cut games, undos, 2 and 3 players, every game's odd corners.
ODD = ["game-over-then-undo", "all-undone", "header-only-2p", "prefix-2p-awaiting-redirect",
       "prefix-4p-awaiting-remove", "prefix-3p-half", "game-2p-s201-q25-u15",
       "fa-header-only", "fa-open-possession", "fa-spirit-tie", "fa-3p-s530-half",
       "fa-4p-s541-q0", "ritos-2p-s1-before-hands", "ritos-4p-s2-half", "ritos-3p-s1"]


# Logs that stop before anything to draw: no ritual, no round ended.
NO_PICTURE = {"all-undone", "header-only-2p", "fa-header-only", "fa-open-possession"}


@pytest.mark.parametrize("case", ODD)
def test_cut_games_and_undos(case, tmp_path):
    data = logcases.VALID[case]
    code, page, pngs = sheet(tmp_path, data)
    assert code == 0 and bool(pngs) == (case not in NO_PICTURE)
    for p in pngs:
        check_png(p)
    lines = [json.loads(x) for x in data.decode().splitlines() if x.strip()]
    undos = sum(1 for x in lines if x.get("do") == "undo")
    said = re.search(r"(\d+) (ações desfeitas|ação desfeita)", page)
    assert (int(said.group(1)) if said else 0) == undos
    assert not said or (said.group(2) == "ação desfeita") == (undos == 1)    # one: singular
    s = Session(lines[0])
    for x in lines[1:]:
        s.do(x)
    cut = s.view()["status"] != "over"
    assert ("Partida interrompida" in page) == cut


def test_the_header_names_the_options_not_at_their_defaults(tmp_path):
    code, page, _ = sheet(tmp_path, logcases.VALID["opt-4p-power"])
    assert code == 0
    words = text_of(page)
    assert "Opções fora do padrão: power = [1, 2, 4]" in words
    assert "1 cultista próprio vale 1, 2 valem 2, 3 valem 4." in words
    code, page, _ = sheet(tmp_path, example("sete-selos-4p"), name="plain")
    assert "Opções" not in text_of(page)


def test_any_name_is_shown_as_written(tmp_path, recwarn):
    h, a = sete_selos_game(4, 40, quick=50)
    h["players"] = ["$x$", "_a", "🐙 Ctulhu", "<b>Zoë</b>"]
    code, page, pngs = sheet(tmp_path, logcases.text(h, *a))
    assert code == 0 and not recwarn.list
    assert all(n in text_of(page) for n in h["players"]) and "<b>Zoë" not in page
    for p in pngs:
        check_png(p)


def test_the_facts_of_every_valid_log():
    """The replay behind the sheet takes every valid log of the corpus."""
    from altar import log
    for name, data in logcases.VALID.items():
        f = facts(log.load(data.splitlines()))
        assert f.view == log.load(data.splitlines()).view(), name


def test_english_uses_the_devices_english(tmp_path):
    code, page, _ = sheet(tmp_path, example("sete-selos-4p"), "--lang", "en")
    assert code == 0
    en = strings("en")
    words = text_of(page)
    assert en["wins"] % "P4" in words and en["elder"] % 7 in words
    assert "Ancião" not in words and "Game sheet" in words and '<html lang=en>' in page


def test_output_where_asked(tmp_path):
    out = tmp_path / "elsewhere" / "night.html"
    out.parent.mkdir()
    log_path = tmp_path / "game.jsonl"
    log_path.write_bytes(example("ritos-ancestrais-3p"))
    assert main(["sheet", str(log_path), "-o", str(out)]) == 0
    assert out.exists() and (tmp_path / "elsewhere" / "night-scores.png").exists()
    assert sorted(os.listdir(tmp_path)) == ["elsewhere", "game.jsonl"]


def test_dump_writes_the_sheet_beside_the_log(tmp_path):
    capture = tmp_path / "serial.txt"
    capture.write_text("code.py output:\n%s\n%s%s\n>>> \n" % (
        BEGIN, example("fantasmagoria-4p").decode(), END))
    out = tmp_path / "night.jsonl"
    assert main(["dump", str(capture), "-o", str(out), "--sheet"]) == 0
    assert out.read_bytes() == example("fantasmagoria-4p")
    assert (tmp_path / "night.html").exists() and (tmp_path / "night-track.png").exists()
    pt = (tmp_path / "night.html").read_text(encoding="utf-8")
    assert main(["dump", str(capture), "-o", str(out), "--sheet", "--lang", "en"]) == 0
    assert (tmp_path / "night.html").read_text(encoding="utf-8") != pt
    # a refused export: neither the log nor a sheet
    capture.write_text("%s\n%s{\"do\": \"dance\"}\n%s\n" % (
        BEGIN, example("fantasmagoria-4p").decode(), END))
    assert main(["dump", str(capture), "-o", str(tmp_path / "bad.jsonl"), "--sheet"]) == 2
    assert not list(tmp_path.glob("bad*"))


@pytest.mark.parametrize("name", GAMES)
def test_a_browser_draws_the_sheet(name, tmp_path):
    browser = chromium()
    if not browser:
        pytest.skip("no chromium or chromium-browser on PATH")
    code, _, _ = sheet(tmp_path, example(name))
    assert code == 0
    shot = tmp_path / "shot.png"
    # no sandbox: Chromium refuses to start with one as root (CI runs as root)
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                    "--screenshot=%s" % shot, "--window-size=1000,3000",
                    (tmp_path / "game.html").as_uri()], check=True, timeout=120,
                   capture_output=True)
    check_png(shot, ink=0.01)


def test_one_undo_is_said_in_the_singular():
    from altar_host import sheet as sheet_mod
    s = Session({"altar": 1, "game": "sete-selos", "players": ["P1", "P2", "P3"]})
    for n, said in ((1, "1 ação desfeita no aparelho"), (2, "2 ações desfeitas no aparelho")):
        assert said in sheet_mod.build(s, "pt", n)[0]
    assert "1 action undone on the device" in sheet_mod.build(s, "en", 1)[0]
