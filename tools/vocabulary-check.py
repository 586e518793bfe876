#!/usr/bin/env python3
"""Shows that two sets of event logs differ only in the names of the
event vocabulary (docs/why.md, "One kind per idea"): every line of an old
log, its kind renamed (Volley -> Fire, Clash -> Melee, Casualties ->
Losses, Turned -> Facing) and a CorpsBroken's second `side` key written
as `army`, is the new log's line byte for byte. Same dice, same orders,
same outcomes.

    tools/vocabulary-check.py OLD_REV [LOG...]

reads each golden log (default: every tests/golden/*.jsonl) as it was at
git revision OLD_REV and as it is in the work tree. Exits non-zero and
names the first line that differs in more than names.
"""
import glob
import json
import subprocess
import sys

RENAMED = {"Volley": "Fire", "Clash": "Melee", "Casualties": "Losses", "Turned": "Facing"}


class Pairs(list):
    """A JSON object as read, every key kept in order (twice, if twice)."""


def render(value):
    if isinstance(value, Pairs):
        return "{" + ",".join(json.dumps(k) + ":" + render(v) for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(render(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def renamed(line):
    pairs = json.loads(line, object_pairs_hook=Pairs)
    kind = dict(pairs).get("kind")
    out, seen_side = [], False
    for key, value in pairs:
        if key == "kind":
            value = RENAMED.get(value, value)
        if key == "side" and kind == "CorpsBroken":
            # The first `side` is the envelope's, the second the corps'.
            if seen_side:
                key = "army"
            seen_side = True
        out.append((key, value))
    return render(Pairs(out))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rev, logs = sys.argv[1], sys.argv[2:] or sorted(glob.glob("tests/golden/*.jsonl"))
    bad = 0
    for path in logs:
        old = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout
        new = open(path, encoding="utf-8").read()
        old_lines, new_lines = old.splitlines(), new.splitlines()
        changed = 0
        if len(old_lines) != len(new_lines):
            print(f"{path}: {len(old_lines)} lines then, {len(new_lines)} now")
            bad += 1
            continue
        for n, (a, b) in enumerate(zip(old_lines, new_lines), 1):
            if renamed(a) != b:
                print(f"{path}:{n}: more than names changed\n  old: {a}\n  new: {b}")
                bad += 1
                break
            changed += a != b
        print(f"{path}: {len(new_lines)} lines, {changed} renamed, nothing else changed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
