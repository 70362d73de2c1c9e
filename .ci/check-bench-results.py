#!/usr/bin/env python3
"""bench/results/ and the bench scripts (bench/*.R) are read on other
machines: no result file or script may carry an absolute path of the
machine it ran on (a library, a data directory, a scratch file). Exits 1
and lists each offending line."""
import pathlib
import re
import sys

ABSOLUTE = re.compile(r"(?:^|[\s=:'\"(,])(/(?:home|work|tmp|root|Users|var|opt|srv|mnt)/[^\s'\",)]*)")

def main():
    bench = pathlib.Path(__file__).resolve().parent.parent / "bench"
    root = bench / "results"
    files = sorted(p for p in root.rglob("*") if p.is_file()) + sorted(bench.glob("*.R"))
    bad = []
    for path in files:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            match = ABSOLUTE.search(line)
            if match:
                bad.append(f"{path.relative_to(bench.parent)}:{number}: {match.group(1)}")
    for line in bad:
        print(line)
    print(f"{len(bad)} absolute paths in bench/results and bench/*.R")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
