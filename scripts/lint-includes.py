#!/usr/bin/env python3
"""The include rule (CONTRIBUTING.md#the-include-rule), checked by `make lint`.

Each program (gen/, measure/) is a pipeline of stage folders.  A file may
include headers of its own folder by name, headers of lib/ by name, and the
headers of the folders below its own in STAGES by their folder
("2-model/rmodel.h").  A header whose name ends in _int.h is its folder's
own.  Anything else is an error naming the file, the line and the header.
"""
import os
import re
import subprocess
import sys

# One row per folder: (program, folder, rank).  A folder includes only from
# folders of a lower rank (and its own).  "" is the program's root (main.c).
STAGES = [
    ("gen", "base", 0),
    ("gen", "template", 1),
    ("gen", "1-load", 2),
    ("gen", "2-model", 3),
    ("gen", "3-tables", 4),
    ("gen", "4-charts", 5),
    ("gen", "5-views", 6),
    ("gen", "6-output", 7),
    ("gen", "import", 7),
    ("gen", "cmd", 8),
    ("gen", "", 9),
    ("measure", "gpu", 0),
    ("measure", "1-facts", 1),
    ("measure", "2-parse", 2),
    ("measure", "3-fit", 3),
    ("measure", "4-run", 4),
    ("measure", "5-import", 5),
    ("measure", "cmd", 6),
    ("measure", "", 7),
]
RANK = {(p, f): r for p, f, r in STAGES}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def tracked_sources():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "lib", "gen", "measure"],
                         capture_output=True, text=True, check=True).stdout.split()
    return sorted(f for f in out if f.endswith((".c", ".h", ".cu")) and os.path.exists(f))


def where(path):
    """(program, folder) of a source path, or None for lib/."""
    parts = path.split("/")
    if parts[0] == "lib":
        return None
    return parts[0], "/".join(parts[1:-1])


def check(path, lineno, inc, errors):
    src_dir = os.path.dirname(path)
    same = os.path.join(src_dir, inc)
    lib = os.path.join("lib", inc)
    if "/" not in inc and os.path.exists(same):
        return
    if "/" not in inc and os.path.exists(lib):
        return
    me = where(path)
    if me is None:
        errors.append(f"{path}:{lineno}: \"{inc}\": lib/ includes only lib/ headers")
        return
    prog, folder = me
    target = os.path.join(prog, inc)
    if "/" not in inc or not os.path.exists(target):
        errors.append(f"{path}:{lineno}: \"{inc}\": no such header in {src_dir}/, lib/ or "
                      f"{prog}/ (a header of another folder is included as \"FOLDER/NAME.h\")")
        return
    tfolder = os.path.dirname(inc)
    if (prog, tfolder) not in RANK:
        errors.append(f"{path}:{lineno}: \"{inc}\": {prog}/{tfolder} is no stage folder "
                      "(scripts/lint-includes.py STAGES)")
        return
    if (prog, folder) not in RANK:
        errors.append(f"{path}:{lineno}: {prog}/{folder} is no stage folder "
                      "(scripts/lint-includes.py STAGES)")
        return
    if inc.endswith("_int.h"):
        errors.append(f"{path}:{lineno}: \"{inc}\": a _int.h header is its own folder's")
    elif RANK[(prog, tfolder)] >= RANK[(prog, folder)]:
        errors.append(f"{path}:{lineno}: \"{inc}\": {prog}/{folder} may not include from "
                      f"{prog}/{tfolder}, a later stage or a sibling (backward include)")


def main():
    errors = []
    files = tracked_sources()
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    check(path, lineno, m.group(1), errors)
    for e in errors:
        print(e, file=sys.stderr)
    print(f"lint-includes: {len(files)} files, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
