#!/usr/bin/env python3
"""Lists files of src/core/forest/ and of the R bindings (src/*.cpp, src/*.h)
that include a concrete leaf or splitter header: they must reach leaf and
split kinds through the registries (leaves/LeafKinds.h, leaves/LeafModel.h,
splitting/Splitter.h) or through headers of a kind's internals that are no
class of a concrete part (e.g. splitting/ProximalSvm.h). Also lists leaves
(src/core/leaves/) that include any splitter header: what a leaf shares
with the splitters belongs to the outcome unit (src/core/outcome/).
Exit status 1 when any does.
Usage: python3 .ci/check-includes.py [src]
"""
import glob
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
CONCRETE = re.compile(r'(^|/)(leaves/(?!LeafKinds\.h|LeafModel\.h)\w+\.h|splitting/\w+Splitter\.h|\w+Leaf\.h)$')
ALLOWED = re.compile(r'(^|/)splitting/Splitter\.h$')
SPLITTER = re.compile(r'(^|/)splitting/')


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else 'src'
    files = sorted(glob.glob(os.path.join(src, '*.cpp')) + glob.glob(os.path.join(src, '*.h')) +
                   glob.glob(os.path.join(src, 'core', 'forest', '*.cpp')) +
                   glob.glob(os.path.join(src, 'core', 'forest', '*.h')))
    bad = 0
    for path in files:
        with open(path, encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m and CONCRETE.search(m.group(1)) and not ALLOWED.search(m.group(1)):
                    print(f'{path}:{no}: includes {m.group(1)}')
                    bad += 1
    print(f'{bad} includes of a concrete leaf or splitter header in forest/ and the bindings')
    leaf_bad = 0
    leaves = sorted(glob.glob(os.path.join(src, 'core', 'leaves', '*.cpp')) +
                    glob.glob(os.path.join(src, 'core', 'leaves', '*.h')))
    for path in leaves:
        with open(path, encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m and SPLITTER.search(m.group(1)):
                    print(f'{path}:{no}: a leaf includes the splitter header {m.group(1)}')
                    leaf_bad += 1
    print(f'{leaf_bad} includes of a splitter header in leaves/')
    return 1 if bad or leaf_bad else 0


if __name__ == '__main__':
    sys.exit(main())
