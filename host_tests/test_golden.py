"""Golden transcript of one complete 4-player game: the state after every
action, as the replay prints it. ALTAR_REGEN=1 rewrites it (then read the
diff before committing)."""

import json
import os

from altar.core import Session
from altar.jsonout import dumps
from altar_host.cli import EXAMPLES
from conftest import HERE, run_replay

LOG = os.path.join(EXAMPLES, "sete-selos-4p.jsonl")
GOLDEN = os.path.join(HERE, "golden", "sete-selos-4p.transcript")


def transcript():
    with open(LOG, encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    s = Session(json.loads(lines[0]))
    out = []
    for line in lines[1:]:
        s.do(json.loads(line))
        out.append(line)
        out.append("=> " + dumps(s.view()))
    return out


def test_golden_transcript():
    got = transcript()
    if os.environ.get("ALTAR_REGEN"):
        with open(GOLDEN, "w", encoding="utf-8") as f:
            f.write("\n".join(got) + "\n")
    with open(GOLDEN, encoding="utf-8") as f:
        assert got == f.read().splitlines()


def test_golden_game_is_complete_and_rich():
    with open(GOLDEN, encoding="utf-8") as f:
        last = json.loads(f.read().splitlines()[-1][3:])
    assert last["status"] == "over" and last["reason"] == "power"
    assert last["ritual"] == 21 and last["winners"] == [3]
    with open(LOG, encoding="utf-8") as f:
        verbs = [json.loads(ln)["do"] for ln in f.read().splitlines()[1:]]
    assert {"ritual", "redirect", "remove"} <= set(verbs)


def test_golden_final_state_on_both_vms():
    with open(GOLDEN, encoding="utf-8") as f:
        want = (f.read().splitlines()[-1][3:] + "\n").encode()
    for vm in ("cpython", "micropython"):
        assert run_replay(vm, LOG) == (0, want, b"")
