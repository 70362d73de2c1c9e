#!/usr/bin/env python3
"""Fails when an outcome unit (src/core/outcome/**) holds a search over cut
candidates. The split search (src/core/splitting/search/CutSearch.h) owns
the one loop over boundaries, the fewest rows per side and the threshold's
place; an outcome gives only a cut statistic (outcome/CutScan.h: reset, a
row joins the left group, the gain at a boundary). The rule, on code with
comments and strings removed, so that it holds however a loop is written:
  1. no outcome file names a cut search or threshold placement: an
     identifier best_*cut, take_cut, *_scan_cut or search_*cut;
  2. no outcome file sees rows in candidate order: no SortedValues and no
     (value, position) pairs (std::pair<double, int>), the form every
     search hands sorted rows in, so an outcome has nothing to loop over;
  3. no outcome file includes a splitting/ header (the search lives there).
(CutScan.h's CutScanOf::gains() adds rows and reads gains at boundaries the
search hands it, so that a scan is not called once per row; which boundaries,
the rows per side and the threshold stay the search's.)
Exit status 1 when any line breaks a rule.
Usage: python3 .ci/check-cut-loops.py [src]
"""
import glob
import os
import re
import sys

RULES = [
    (re.compile(r'\b(best_\w*cut|take_cut|\w+_scan_cut|search_\w*cut)\b'), 'names a cut search'),
    (re.compile(r'\bSortedValues\b|pair\s*<\s*double\s*,\s*int\s*>'), 'takes rows in candidate order'),
    (re.compile(r'^\s*#\s*include\s*"(\.\./)*(core/)?splitting/'), 'includes a splitting/ header'),
]


def code_lines(text):
    """The file's lines without comments and string contents (includes kept)."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    out = []
    for line in text.split('\n'):
        if re.match(r'^\s*#\s*include', line):
            out.append(line)
            continue
        line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
        line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
        out.append(line.split('//')[0])
    return out


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else 'src'
    root = os.path.join(src, 'core', 'outcome')
    files = sorted(glob.glob(os.path.join(root, '**', '*.h'), recursive=True) +
                   glob.glob(os.path.join(root, '**', '*.cpp'), recursive=True))
    bad = 0
    for path in files:
        with open(path, encoding='utf-8') as f:
            lines = code_lines(f.read())
        for no, line in enumerate(lines, 1):
            for pattern, what in RULES:
                if pattern.search(line):
                    print(f'{path}:{no}: {what}: {line.strip()}')
                    bad += 1
    print(f'{bad} lines of outcome units ({len(files)} files) with a cut search of their own')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
