#!/usr/bin/env python3
"""Copies a rule file for vmalert's replay: without its `annotations:` blocks, one file per group.

The replay refuses the `query` template function the annotations use, and annotations play no part in what it
writes (recorded series, ALERTS, ALERTS_FOR_STATE). One file per group, in the file's order, lets the caller
replay the groups one after another and make each group's output searchable before the next reads it.
Names, expressions, `for:` and labels stay byte for byte. Block-style YAML only, as alerts/headroom-rules.yml
is written (groups start with `  - name:`).

Usage: strip_annotations.py IN.yml OUTDIR     prints the files written, in order (OUTDIR/NN-<group>.yml)
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
    groups, current = [], None
    for line in strip(open(src)):
        m = re.match(r"^  - name:\s*(\S+)", line)
        if m:
            current = [m.group(1), [line]]
            groups.append(current)
        elif current is not None:
            current[1].append(line)
    if not groups:
        sys.exit(f"strip_annotations.py: no `  - name:` group in {src}")
    os.makedirs(outdir, exist_ok=True)
    for i, (name, body) in enumerate(groups):
        path = os.path.join(outdir, f"{i:02d}-{name}.yml")
        with open(path, "w") as f:
            f.write("groups:\n")
            f.writelines(body)
        print(path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
