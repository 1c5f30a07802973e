"""BENCHMARKS.md sections: each benchmark script owns the text between
`<!-- NAME -->` and `<!-- /NAME -->` and rewrites only that."""

import os

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "BENCHMARKS.md")


def write_section(name, text):
    start, end = "<!-- %s -->" % name, "<!-- /%s -->" % name
    block = "%s\n%s\n%s\n" % (start, text.strip("\n"), end)
    old = ""
    if os.path.exists(PATH):
        with open(PATH, encoding="utf-8") as f:
            old = f.read()
    if start in old and end in old:
        new = old[:old.index(start)] + block + old[old.index(end) + len(end) + 1:]
    else:
        new = old.rstrip("\n") + "\n\n" + block
    with open(PATH, "w", encoding="utf-8") as f:
        f.write(new)


def sections(text):
    """The marked sections of a BENCHMARKS.md text (kept when bench_replay
    rewrites the top of the file)."""
    i = text.find("<!-- bench_")
    return "" if i < 0 else "\n" + text[i:]
