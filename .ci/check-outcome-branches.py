#!/usr/bin/env python3
"""Fails on an outcome family's name used as a branch outside the family's
own files (R/family-*.R, R/oob-*.R, R/predict-*.R; roxygen docs and
comments do not count): `type == "survival"`, `%in% "regression"`,
`identical(x, "classification")`, `switch(outcome, classification = ...)`.
Code that needs an outcome's behaviour asks its family (R/family.R). A
line whose name means something else (parsnip's mode "regression", the
prediction type "survival") says so with the comment `# not an outcome: why`."""
import glob
import os
import re
import sys

FAMILIES = ("classification", "regression", "survival")
ROOMS = ("family-", "oob-", "predict-")
NAME = r'["\'](?:%s)["\']' % "|".join(FAMILIES)
# a quoted family name beside a comparison, or as a switch() arm
PATTERNS = [
    re.compile(r'(==|!=)\s*' + NAME), re.compile(NAME + r'\s*(==|!=)'),
    re.compile(r'%in%\s*(c\()?\s*' + NAME), re.compile(NAME + r'\s*\)?\s*%in%'),
    re.compile(r'\b(identical|isTRUE|match|startsWith)\s*\([^()]*' + NAME),
    re.compile(r'`?\b(?:%s)\b`?\s*=(?!=)' % "|".join(FAMILIES)),  # checked inside switch( only
]
SWITCH_ARM = PATTERNS[-1]


def code_of(line):
    """The line without its comment (a # outside a string)."""
    out, quote = [], None
    for i, ch in enumerate(line):
        if quote:
            out.append(ch)
            if ch == quote and line[i - 1] != "\\":
                quote = None
        elif ch in "\"'`":
            quote = ch
            out.append(ch)
        elif ch == "#":
            break
        else:
            out.append(ch)
    return "".join(out)


def offenders(path):
    found, in_switch = [], 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            code = code_of(line)
            if not code.strip() or re.search(r"#\s*not an outcome:\s*\S", line):
                continue
            if "switch(" in code:
                in_switch = 3  # the arms of a switch() on this line and the next two
            hit = any(p.search(code) for p in PATTERNS[:-1]) or (in_switch and SWITCH_ARM.search(code))
            in_switch = max(0, in_switch - 1)
            if hit:
                found.append("%s:%d: %s" % (path, number, line.strip()))
    return found


def main(argv):
    root = argv[1] if len(argv) > 1 else "R"
    bad = []
    for path in sorted(glob.glob(os.path.join(root, "*.R"))):
        if os.path.basename(path).startswith(ROOMS):
            continue
        bad.extend(offenders(path))
    for line in bad:
        print(line)
    if bad:
        print("%d outcome-name branch(es) outside R/family-*.R, R/oob-*.R, R/predict-*.R: ask the family instead"
              % len(bad))
        return 1
    print("outcome branches: none outside the families' files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
