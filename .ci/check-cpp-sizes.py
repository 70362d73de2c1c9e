#!/usr/bin/env python3
"""Lists C++ source files over 400 lines and functions over 100 lines in src/.

A function is a brace block opened on a line whose text before the brace
ends with ')' (optionally followed by const/override/noexcept or an
initialiser list), and that is not a control statement or a lambda.
Exit status 1 when anything is over its limit.
Usage: python3 .ci/check-cpp-sizes.py [src]
"""
import os
import re
import sys

FILE_LIMIT, FUNCTION_LIMIT = 400, 100
CONTROL = re.compile(r'^\s*(\}\s*)?(if|for|while|switch|else|do|catch|try)\b')


def strip(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split('//')[0]


def functions(lines):
    """(name line, length) of each outermost function body."""
    out, depth, start, header = [], 0, None, ''
    for i, raw in enumerate(lines):
        line = strip(raw)
        for ch in line:
            if ch == '{':
                if start is None:
                    text = (header + ' ' + line.split('{')[0]).strip()
                    is_fn = (re.search(r'\)\s*(const\s*)?(override\s*)?(noexcept\s*)?(:.*)?$', text)
                             and not CONTROL.match(text) and not re.search(r'\]\s*\([^)]*\)\s*(mutable\s*)?$', text)
                             and not re.match(r'^\s*(namespace|class|struct|enum)\b', text))
                    if is_fn:
                        start = (i, depth)
                depth += 1
            elif ch == '}':
                depth -= 1
                if start is not None and depth == start[1]:
                    out.append((start[0] + 1, i - start[0] + 1))
                    start = None
        if start is None:
            header = line if line.strip() and not line.strip().endswith((';', '}', '{')) else ''
            if header and ';' in header:
                header = ''
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else 'src'
    bad = 0
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(('.cpp', '.h')) or f == 'RcppExports.cpp':
                continue
            path = os.path.join(d, f)
            lines = open(path, encoding='utf-8').read().split('\n')
            n = len(lines) - (1 if lines and lines[-1] == '' else 0)
            if n > FILE_LIMIT:
                print(f'{path}: {n} lines (file limit {FILE_LIMIT})')
                bad += 1
            for at, length in functions(lines):
                if length > FUNCTION_LIMIT:
                    print(f'{path}:{at}: function of {length} lines (limit {FUNCTION_LIMIT})')
                    bad += 1
    print(f'{bad} over the limits')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
