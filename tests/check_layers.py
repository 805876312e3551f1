#!/usr/bin/env python3
"""make check-layers: the include edges of libpomp and pomp-report point one way.

    event sources (pomplib/events, *-bridge/)  --pomp_record.h only-->  core
    core (pomplib/core, sampling, devices)     -->  writers (pomplib/output)
    everything                                 -->  common (pomplib/common, pomplib/include, ctc)
    pomp-report (pomplib/report)               -->  the writers' trace reading library, common

An include that points up (writers -> core, core -> a source) or sideways (one
bridge -> another) is an error, printed as file:line with the edge. Usage:
check_layers.py [ROOT] (default: the repository this script is in).
"""
import os
import re
import sys

# folder (relative to the root) -> layer
FIXED_LAYERS = {
    "pomplib/common": "common",
    "pomplib/include": "common",
    "ctc": "common",
    "pomplib/output": "output",
    "pomplib/core": "core",
    "pomplib/sampling": "core",
    "pomplib/devices": "core",
    "pomplib/events": "source",
    "pomplib/report": "report",
}
# what each layer may include, by layer
ALLOWED = {
    "common": {"common"},
    "output": {"output", "common"},
    "core": {"core", "output", "common"},
    "source": {"core", "common"},   # and its own folder (checked apart)
    "report": {"report", "output", "common"},
}
# the one header of the core a source may include
RECORD_INTERFACE = "pomp_record.h"
# what pomp-report may take from the writers: the trace model and its readers
REPORT_READING_LIBRARY = {"trace_model.h", "trace_walk.h", "trace_chrome.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# The instrumenter's modules (instrumenter/modules.h) reach the rewriter through
# rewriter.h only; instrument.c reaches the modules through their table only.
INSTRUMENTER_MODULES = {"pomp_directives.c", "inst_levels.c", "api_calls.c", "functions.c"}
REWRITER_INSIDES = {"instrument.h", "rewrite.h"}
MODULE_HEADERS = {"inst_levels.h"}


def check_instrumenter(root):
    problems = []
    folder = os.path.join(root, "instrumenter")
    if not os.path.isdir(folder):
        return problems
    for name in sorted(os.listdir(folder)):
        if name not in INSTRUMENTER_MODULES and name != "instrument.c":
            continue
        path = os.path.join("instrumenter", name)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                header = m and os.path.basename(m.group(1))
                if name in INSTRUMENTER_MODULES and header in REWRITER_INSIDES:
                    problems.append(f"{path}:{lineno}: module includes {header} of the rewriter's "
                                    "insides: modules reach the rewriter through rewriter.h only")
                elif name == "instrument.c" and header in MODULE_HEADERS:
                    problems.append(f"{path}:{lineno}: instrument.c includes {header} of a module: "
                                    "it calls the modules through their table only")
    return problems


def layer_folders(root):
    folders = dict(FIXED_LAYERS)
    for name in sorted(os.listdir(root)):
        if name.endswith("-bridge") and os.path.isdir(os.path.join(root, name)):
            folders[name] = "source"
    return {f: l for f, l in folders.items() if os.path.isdir(os.path.join(root, f))}


def headers_by_name(root, folders):
    where = {}
    for folder in folders:
        for name in os.listdir(os.path.join(root, folder)):
            if name.endswith(".h"):
                where.setdefault(name, []).append(folder)
    return where


def check(root):
    folders = layer_folders(root)
    where = headers_by_name(root, folders)
    problems = []
    for folder, layer in sorted(folders.items()):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, name)
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
            for lineno, line in enumerate(lines, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                header = os.path.basename(m.group(1))
                homes = where.get(header)
                if not homes:
                    continue  # generated or outside the layers (omp-tools.h, build/gen)
                target = folder if folder in homes else homes[0]
                tlayer = folders[target]
                edge = f"{path}:{lineno}: {layer} ({folder}) includes {header} of {tlayer} ({target})"
                if target == folder:
                    continue
                if layer == "source" and tlayer == "source":
                    problems.append(edge + ": one event source may not include another")
                elif tlayer not in ALLOWED[layer]:
                    problems.append(edge + ": the edge points up")
                elif layer == "source" and tlayer == "core" and header != RECORD_INTERFACE:
                    problems.append(edge + f": sources reach the core through {RECORD_INTERFACE} only")
                elif layer == "report" and tlayer == "output" and header not in REPORT_READING_LIBRARY:
                    problems.append(edge + ": pomp-report reads the writers' files, it links no writer")
    return folders, problems + check_instrumenter(root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folders, problems = check(root)
    for p in problems:
        print(f"check-layers: {p}", file=sys.stderr)
    if problems:
        print(f"check-layers: {len(problems)} include edge(s) against the layers (docs/architecture.md)",
              file=sys.stderr)
        return 1
    print(f"check-layers: {len(folders)} folders, every include edge points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
