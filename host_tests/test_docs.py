"""The project's own docs (docs/session-log.md, docs/rules.md) against the
engine: every verb, action key, header key and view key the engine knows is
written in the session-log page, every rule option is in the rules page with
its default, and every option documented there exists. The engine's sets are
read from its code (the verb comparisons and `keys(...)` calls in each
game's parse functions, the dict literals of `view`, each game's `OPTIONS`),
so a new verb, key or option without docs fails here."""

import ast
import json
import os
import re
import subprocess

import pytest

from altar import core
from altar.core import Session
from conftest import ROOT

DOCS = os.path.join(ROOT, "docs")
SESSION_LOG = os.path.join(DOCS, "session-log.md")
RULES = os.path.join(DOCS, "rules.md")
PLAYERS = {"sete-selos": 2, "fantasmagoria": 3, "ritos-ancestrais": 2}


# -- the engine, read from its code ------------------------------------------

def modules(game):
    """The game's module and, if it has one, its referee-entry module."""
    mod = core.game_module(game)
    return [mod, mod.referee()] if hasattr(mod, "referee") else [mod]


def _tree(mod):
    with open(mod.__file__, encoding="utf-8") as f:
        return ast.parse(f.read())


def _str(node):
    return node.value if isinstance(node, ast.Constant) and type(node.value) is str else None


def _is_verb(node):
    # `verb` (the games' parse) or `need(obj, "do")` (core's undo).
    if isinstance(node, ast.Name):
        return node.id == "verb"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "need" and len(node.args) == 2 and _str(node.args[1]) == "do")


def verbs_of(mod):
    """Every string compared with the action's verb."""
    out = set()
    for node in ast.walk(_tree(mod)):
        if isinstance(node, ast.Compare) and _is_verb(node.left):
            for c in node.comparators:
                if _str(c) is not None:
                    out.add(_str(c))
    return out


def keys_of(mod):
    """Every key allowed by a `keys(obj, allowed)` call: a literal tuple or a
    module-level name."""
    out = set()
    for node in ast.walk(_tree(mod)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "keys" and len(node.args) == 2):
            arg = node.args[1]
            if isinstance(arg, ast.Name):
                allowed = getattr(mod, arg.id)
            else:
                allowed = ast.literal_eval(arg)
            out.update(allowed)
    return out


def view_keys_of(mod):
    """The string keys of every dict literal in a `view` function."""
    out = set()
    for node in ast.walk(_tree(mod)):
        if isinstance(node, ast.FunctionDef) and node.name == "view":
            for d in ast.walk(node):
                if isinstance(d, ast.Dict):
                    out.update(_str(k) for k in d.keys if _str(k) is not None)
    return out


def options_of(game):
    return core.game_module(game).OPTIONS


# -- the docs ---------------------------------------------------------------

def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def sections(text):
    """Level-2 sections: title -> text (with their subsections)."""
    out = {}
    title = ""
    for line in text.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            out[title] = ""
        out[title] = out.get(title, "") + line + "\n"
    return out


def game_sections(text):
    """Sections whose title ends with the game's id in backticks."""
    out = {}
    for title, body in sections(text).items():
        m = re.search(r"\(`([a-z-]+)`\)$", title)
        if m:
            out[m.group(1)] = body
    return out


def section(text, title):
    for t, body in sections(text).items():
        if t == title:
            return body
    raise AssertionError("no section '## %s'" % title)


def code_words(text):
    """Every word (letters, digits, _ and -) inside code: fenced blocks and
    backtick spans."""
    fences = re.findall(r"```.*?```", text, re.S)
    rest = re.sub(r"```.*?```", "", text, flags=re.S)
    spans = fences + re.findall(r"`[^`\n]+`", rest)
    words = set()
    for s in spans:
        words.update(re.findall(r"[A-Za-z0-9_][A-Za-z0-9_-]*", s))
    return words


def option_tables(text):
    """game -> {option: default cell}, from the rows of the tables whose
    header is `| option | default | ...` in each game's section."""
    out = {}
    for game, body in game_sections(text).items():
        rows = {}
        inside = False
        for line in body.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| option | default |"):
                inside = True
            elif inside and line.startswith("|"):
                if set(cells[0]) <= set("-: "):
                    continue
                m = re.fullmatch(r"`([a-z_0-9]+)`", cells[0])
                assert m, "an option's name is written `name`: %r" % line
                rows[m.group(1)] = cells[1]
            else:
                inside = False
        out[game] = rows
    return out


SESSION_TEXT = _read(SESSION_LOG)
RULES_TEXT = _read(RULES)


# -- session-log.md ------------------------------------------------------------

def test_the_engine_sets_are_found():
    """The code reading above finds what it should (or every check would pass
    on empty sets)."""
    assert {"ritual", "redirect", "remove"} <= verbs_of(core.game_module("sete-selos"))
    assert "undo" in verbs_of(core)
    assert {"winner", "value", "cards"} <= keys_of(core.game_module("sete-selos")) | \
        keys_of(modules("sete-selos")[1])
    assert {"ghosts", "candelabro"} <= keys_of(core.game_module("fantasmagoria"))
    assert {"altar", "game", "players", "do"} <= keys_of(core)
    assert {"status", "awaiting", "cultists"} <= view_keys_of(core.game_module("sete-selos"))
    for game in core.GAMES:
        assert options_of(game)
        assert verbs_of(core.game_module(game))


def test_header_keys_are_documented():
    words = code_words(section(SESSION_TEXT, "The header"))
    missing = sorted(set(core._HEADER) - words)
    assert not missing, "header keys missing from docs/session-log.md: %s" % missing


def test_undo_is_documented():
    words = code_words(section(SESSION_TEXT, "Actions"))
    missing = sorted((verbs_of(core) | (keys_of(core) - set(core._HEADER))) - words)
    assert not missing, missing


@pytest.mark.parametrize("game", core.GAMES)
def test_verbs_and_action_keys_are_documented(game):
    body = game_sections(SESSION_TEXT).get(game)
    assert body, "docs/session-log.md has no section '## ... (`%s`)'" % game
    words = code_words(body)
    for mod in modules(game):
        missing = sorted(verbs_of(mod) - words)
        assert not missing, "%s verbs missing from its section: %s" % (game, missing)
        missing = sorted(keys_of(mod) - words)
        assert not missing, "%s keys missing from its section: %s" % (game, missing)


@pytest.mark.parametrize("game", core.GAMES)
def test_view_keys_are_documented(game):
    common = set.intersection(*[view_keys_of(core.game_module(g)) for g in core.GAMES])
    own = view_keys_of(core.game_module(game)) - common
    missing = sorted(own - code_words(game_sections(SESSION_TEXT)[game]))
    assert not missing, "%s view keys missing from its section: %s" % (game, missing)
    missing = sorted(common - code_words(section(SESSION_TEXT, "Replay")))
    assert not missing, "view keys missing from '## Replay': %s" % missing
    # What a fresh session prints is among what the code reading found.
    h = {"altar": 1, "game": game, "players": ["P%d" % i for i in range(PLAYERS[game])]}
    assert set(Session(h).view()) <= view_keys_of(core.game_module(game))


def quick_trick_records():
    """The records whose apply marks a Fantasmagória round as having a trick
    entered as its result (`self.quick = True`), after which the engine has
    no piles to score and refuses `leftover`: read from State.apply."""
    fa = core.game_module("fantasmagoria")
    out = set()
    for node in ast.walk(_tree(fa)):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        sets = [a for a in node.body if isinstance(a, ast.Assign)
                and isinstance(a.targets[0], ast.Attribute) and a.targets[0].attr == "quick"
                and isinstance(a.value, ast.Constant) and a.value.value is True]
        if sets:
            out.add(getattr(fa, node.test.comparators[0].id))
    return out


def test_the_leftover_rule_is_the_engines():
    """docs/session-log.md names the entries after which `leftover` is
    refused; they are those the code marks, each as its log spelling (the
    verb, and the key that tells a quick `trick` from a referee one). A quick
    sacrifice is not among them, and a round begun by one ends with leftover."""
    fa = core.game_module("fantasmagoria")
    records = quick_trick_records()
    assert records and fa.SET_TRUMP not in records
    spelled = set()
    for code in records:
        d = fa.unparse((code, 0, 1))
        spelled.add(d["do"])
        if d["do"] == "trick":
            spelled.update(set(d) - {"do"})
    body = game_sections(SESSION_TEXT)["fantasmagoria"]
    rule = re.search(r"^- `leftover` is refused in a round (.*?)\.", body, re.M | re.S).group(1)
    assert code_words(rule) == spelled, (rule, spelled)
    s = Session({"altar": 1, "game": "fantasmagoria", "players": ["a", "b", "c"]})
    s.do({"do": "sacrifice", "trump": 3, "leader": 0})
    s.do({"do": "trick", "cards": [["gato", 4], ["gato", 5], ["gato", 6]]})
    s.do({"do": "end-round", "leftover": [[], [], []]})
    assert s.view()["round"] == 2


def test_exit_codes_are_documented():
    body = section(SESSION_TEXT, "Errors")
    assert "line N: reason" in body
    assert re.search(r"^\| 0 \|", body, re.M) and re.search(r"^\| 2 \|", body, re.M)


# -- rules.md ------------------------------------------------------------------

@pytest.mark.parametrize("game", core.GAMES)
def test_every_option_is_documented_with_its_default(game):
    documented = option_tables(RULES_TEXT).get(game)
    assert documented is not None, "docs/rules.md has no section '## ... (`%s`)'" % game
    engine = options_of(game)
    assert sorted(documented) == sorted(engine), \
        "documented %s, engine %s" % (sorted(documented), sorted(engine))
    for name, cell in documented.items():
        m = re.fullmatch(r"`(.*)`", cell)
        assert m, "%s: the default is written `JSON`: %r" % (name, cell)
        assert json.loads(m.group(1)) == engine[name], (name, cell, engine[name])


@pytest.mark.parametrize("game", core.GAMES)
def test_documented_options_are_accepted(game):
    """Each documented option, set to its documented default, is accepted by
    a header; an undocumented name is refused (the check is not vacuous)."""
    h = {"altar": 1, "game": game, "players": ["P%d" % i for i in range(PLAYERS[game])]}
    for name, cell in option_tables(RULES_TEXT)[game].items():
        value = json.loads(cell.strip("`"))
        s = Session(dict(h, options={name: value}))
        assert s.rules.options[name] == value
    with pytest.raises(core.Rejected):
        Session(dict(h, options={"no_such_option": 1}))


@pytest.mark.parametrize("game", core.GAMES)
def test_options_data_is_documented(game):
    """An option whose default is a list of objects: their keys, and the
    names they may use (Ritos Ancestrais' symbols), are in the game's
    section of docs/rules.md."""
    words = code_words(game_sections(RULES_TEXT)[game])
    need = set()
    for v in options_of(game).values():
        if type(v) is list:
            for x in v:
                if type(x) is dict:
                    need.update(x)
    need.update(getattr(core.game_module(game), "SYMBOLS", ()))
    missing = sorted(need - words)
    assert not missing, missing


# -- links ---------------------------------------------------------------------

def _slug(title):
    s = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return s.replace(" ", "-")


README = os.path.join(ROOT, "README.md")


def doc_files():
    """The README and every page in docs/."""
    return [README] + sorted(os.path.join(DOCS, n) for n in os.listdir(DOCS) if n.endswith(".md"))


def test_links_between_the_docs_resolve():
    for path in doc_files():
        text = _read(path)
        for target in re.findall(r"\]\(([^)#\s]*)(#[^)\s]*)?\)", text):
            name, anchor = target
            if not name or "://" in name:
                continue
            dest = os.path.normpath(os.path.join(os.path.dirname(path), name))
            assert os.path.exists(dest), "%s links to %s" % (path, name)
            if anchor and dest.endswith(".md"):
                titles = re.findall(r"^#+ (.*)$", _read(dest), re.M)
                assert anchor[1:] in [_slug(t) for t in titles], (path, name, anchor)
    readme = _read(README)
    for page in doc_files()[1:]:
        assert "(docs/%s)" % os.path.basename(page) in readme, page


def test_the_readme_is_a_front_door():
    """At most about 8 KB, the two commands in its first screenful; the
    rest is in docs/, by reader."""
    text = _read(README)
    assert len(text.encode()) <= 8 * 1024
    first = "\n".join(text.splitlines()[:40])
    assert ".venv/bin/altar emulate" in first and ".venv/bin/python -m pytest" in first


def test_nothing_points_outside_the_repository():
    """No file of the project outside .ci/ names the team's folder beside the
    repository, which a clone does not have: the docs live in docs/, and
    CircuitPython's binaries in tools/circuitpython."""
    try:
        names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                               capture_output=True, check=True).stdout.decode().splitlines()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    needles = (("../" + "shared").encode(), ("shared" + "/spec").encode())
    found = []
    for name in names:
        path = os.path.join(ROOT, name)
        if not name.startswith(".ci/") and os.path.isfile(path):
            with open(path, "rb") as f:
                text = f.read()
            found += [(name, n.decode()) for n in needles if n in text]
    assert not found, found


@pytest.mark.parametrize("board", ["macropad", "pico-display", "feather-oled"])
def test_the_readmes_real_firmware_pictures_are_the_hosts_screens(board):
    """docs/BOARD-emulated.png, which the README shows as what real
    CircuitPython drew in rp2040js after tools/rp2040/two-rituals.keys
    (board_emu --png; the Pico's command is run by test_real_firmware.py),
    is the host emulator's screen after the same keys."""
    from altar_host.device.emulator import Device, png_pixels
    dev = Device(board)
    with open(os.path.join(ROOT, "tools", "rp2040", "two-rituals.keys"), encoding="utf-8") as f:
        for line in f:
            for w in line.split("#")[0].split():
                dev.press(w)
    with open(os.path.join(ROOT, "docs", "%s-emulated.png" % board), "rb") as f:
        assert png_pixels(f.read()) == png_pixels(dev.png(scale=2))
