#!/usr/bin/env python3
"""Copies a rule file for vmalert's replay: without its `annotations:` blocks, one file per dependency level.

The replay refuses the `query` template function the annotations use, and annotations play no part in what it
writes (recorded series, ALERTS, ALERTS_FOR_STATE). One file per dependency level lets the caller replay the
levels one after another and make each level's output searchable before the next reads it.
Names, expressions, `for:` and labels stay byte for byte. Block-style YAML only, as alerts/headroom-rules.yml
is written (rules start with `      - record:` or `      - alert:`).

Usage: strip_annotations.py IN.yml OUTDIR     prints the files written, in order (OUTDIR/level-K.yml)
"""
import os
import re
import sys


def strip(lines):
    out, skip_deeper_than = [], None
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if skip_deeper_than is not None:
            if not line.strip() or indent > skip_deeper_than:
                continue
            skip_deeper_than = None
        if re.match(r"^\s+annotations:\s*$", line):
            skip_deeper_than = indent
            continue
        out.append(line)
    return out


def main(src, outdir):
    """Rules regrouped by dependency level: level 0 reads only scraped series, level k reads records of lower
    levels. Inside a level no rule reads another's output, so a replay of one level needs no delay between
    rules, only the previous level's output flushed and searchable before it starts."""
    rules, current = [], None
    for line in strip(open(src)):
        m = re.match(r"^      - (record|alert):\s*(\S+)", line)
        if m:
            current = [m.group(1), m.group(2), [line]]
            rules.append(current)
        elif re.match(r"^  - name:", line) or re.match(r"^    \S", line):
            current = None
        elif current is not None:
            current[2].append(line)
    if not rules:
        sys.exit(f"strip_annotations.py: no rule in {src}")
    records = {name for kind, name, _ in rules if kind == "record"}
    level = {}
    for _ in rules:                      # fixed point: at most one pass per rule
        for kind, name, body in rules:
            text = "".join(body[1:]) if kind == "record" else "".join(body)
            used = [r for r in records if re.search(r"(?<![\w:])" + re.escape(r) + r"(?![\w:])", text)]
            level[(kind, name)] = 1 + max((level.get(("record", r), 0) for r in used), default=-1)
    os.makedirs(outdir, exist_ok=True)
    for k in sorted(set(level.values())):
        path = os.path.join(outdir, f"level-{k}.yml")
        with open(path, "w") as f:
            f.write(f"groups:\n  - name: level-{k}\n    rules:\n")
            for kind, name, body in rules:
                if level[(kind, name)] == k:
                    f.writelines(body)
        print(path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
