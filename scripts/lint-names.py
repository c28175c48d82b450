#!/usr/bin/env python3
"""The naming rule (CONTRIBUTING.md#names), checked by `make lint`.

Every function a source file exports (not static) is named for its module:
the header the file includes first (its own).  In gen/ and measure/ the
prefix is the module's name (sanity.c: sanity_*); in lib/ it is pr_ and the
name (lib/jdoc.c: pr_jdoc_*).  A header shared by several files is named for
their stem (MODULE_OF).  The few names every file uses are in SHARED.
"""
import os
import re
import subprocess
import sys

# The project's allocation helpers: used in every file, named as libc's.
SHARED = {"pr_xmalloc", "pr_xcalloc", "pr_xrealloc", "pr_xstrdup", "pr_xstrndup",
          "pr_xasprintf", "pr_qsort", "main", "LLVMFuzzerTestOneInput"}
# A header for several files is named for their stem.
MODULE_OF = {"pages": "page", "chart_int": "chart", "chartspec_int": "chartspec",
             "mustache_parse_int": "mustache"}
FIRST_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function definition at the start of a line: type words, then NAME(
DEFINITION = re.compile(r'^(?!static\b)(?!typedef\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{',
                        re.M | re.S)


def strip(s):
    s = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), s, flags=re.S)
    s = re.sub(r'//[^\n]*', '', s)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', s)


def module_of(path, src):
    """The module a file belongs to: the longest stem of a header it includes
    that begins its own name (launch_local.c: launch), else its first."""
    me = os.path.basename(path)[:-2]
    stems = []
    for inc in FIRST_INCLUDE.findall(src):
        stem = os.path.basename(inc)[:-2]
        stems.append(MODULE_OF.get(stem, stem[:-4] if stem.endswith("_int") else stem))
    fits = [s for s in stems if me == s or me.startswith(s + "_") or (s in MODULE_OF.values() and me.startswith(s))]
    if fits:
        return max(fits, key=len)
    return stems[0] if stems else me


def main():
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "lib/*.c", "gen/*.c",
                            "measure/*.c"], capture_output=True, text=True, check=True).stdout.split()
    errors = []
    for path in sorted(f for f in files if os.path.exists(f)):
        if os.path.basename(path) == "main.c":
            continue
        raw = open(path, encoding="utf-8", errors="replace").read()
        src = strip(raw)
        mod = module_of(path, raw)
        prefix = ("pr_" + mod) if path.startswith("lib/") else mod
        for m in DEFINITION.finditer(src):
            name = m.group(1)
            if name in SHARED or name == prefix or name.startswith(prefix + "_"):
                continue
            if name in ("if", "while", "for", "switch", "return"):
                continue
            line = src.count("\n", 0, m.start(1)) + 1
            errors.append(f"{path}:{line}: {name}: an exported name of module {mod} begins "
                          f"with {prefix}_ (or make it static)")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"lint-names: {len(files)} files, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
