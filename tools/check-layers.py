#!/usr/bin/env python3
"""check-layers.py [ROOT]: fails where an #include "..." of the library's
sources points upward or across its layers, or where folders include each
other in a cycle.

The layers, bottom first; a folder may include its own files and those of
folders in layers below its own, never one beside it or above it. Top
level: the public headers (include/), core/, then the GPU engine and the
real FFTW beside each other, dispatch/ over both, the FFTW API (shim/),
and the MPI layer on top. Inside engine/: the API (engine/engine.h), the CUDA
context and the solver record beside it, the cuFFT plans and our kernels,
the staging primitives, the solvers (one folder each, none of which knows
another), and the planner with the table of them all. tests/, bench/,
tools/, examples/ and compat/ sit above everything and are not checked.
docs/how-it-works.md ("The engine's layers") says the same in words.
"""
import os
import re
import sys

TOP_LAYERS = [
    {"include"},
    {"core"},
    {"engine", "fallback"},
    {"dispatch"},
    {"shim"},
    {"mpi"},
]
ENGINE_LAYERS = [
    {"engine.h"},
    {"device", "solver"},
    {"cufft", "kernels"},
    {"staging", "r2r"},
    {"fp16", "in_core", "four_step", "out_of_core", "multi"},
    {"plan"},
]
SOURCES = (".h", ".cuh", ".c", ".cc", ".cu", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def rank_of(layers):
    return {name: i for i, layer in enumerate(layers) for name in layer}


TOP_RANK = rank_of(TOP_LAYERS)
ENGINE_RANK = rank_of(ENGINE_LAYERS)


def node(root, path):
    """The layer node of a file: its top-level folder, or engine/<subfolder>
    (engine's own root files are the node "engine/engine.h")."""
    parts = os.path.relpath(path, root).split(os.sep)
    if parts[0] != "engine":
        return parts[0]
    return "engine/" + (parts[1] if len(parts) > 2 else "engine.h")


def resolve(root, including, name):
    """The tree file an #include names (from the including file's folder,
    the root or include/), or None for a header outside the tree."""
    for base in (os.path.dirname(including), root, os.path.join(root, "include")):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path) and os.path.abspath(path).startswith(os.path.abspath(root) + os.sep):
            return path
    return None


def verdict(a, b, rank, shown):
    """'' where a may include b by the layers `rank`, else why not; shown
    writes a node as the message names it."""
    for n in (a, b):
        if n not in rank:
            return "%s is in no layer (tools/check-layers.py)" % shown(n)
    if rank[b] < rank[a]:
        return ""
    return "%s: %s" % ("beside it" if rank[b] == rank[a] else "upward", shown(b))


def allowed(src, dst):
    """'' where src may include dst, else why not."""
    if src == dst:
        return ""
    if src.startswith("engine/") and dst.startswith("engine/"):
        return verdict(src[len("engine/"):], dst[len("engine/"):], ENGINE_RANK, lambda n: "engine/" + n)
    return verdict(src.split("/")[0], dst.split("/")[0], TOP_RANK, lambda n: n + "/")


def cycles(edges):
    """The folders that include each other in a cycle: each strongly
    connected group of the folder graph of more than one folder."""
    graph = {}
    for a, b in edges:
        if a != b:
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set())
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    checked = [d for d in sorted({n for layer in TOP_LAYERS for n in layer} - {"include"})
               if os.path.isdir(os.path.join(root, d))]
    if not checked:
        print("check-layers: no source folders under %s" % root)
        return 1
    errors, edges, files = [], {}, 0
    for top in checked:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(folder, name)
                files += 1
                src = node(root, path)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        target = m and resolve(root, path, m.group(1))
                        if not target:
                            continue
                        dst = node(root, target)
                        if dst.split("/")[0] in ("tests", "bench", "tools", "examples", "compat"):
                            errors.append("%s:%d: includes %s from %s/, which is above the library" %
                                          (os.path.relpath(path, root), number, m.group(1), dst.split("/")[0]))
                            continue
                        edges.setdefault((src, dst), "%s:%d" % (os.path.relpath(path, root), number))
                        why = allowed(src, dst)
                        if why:
                            errors.append("%s:%d: %s includes %s, %s" %
                                          (os.path.relpath(path, root), number, src, m.group(1), why))
    for group in cycles(edges):
        steps = ["%s -> %s (%s)" % (a, b, at) for (a, b), at in sorted(edges.items())
                 if a != b and a in group and b in group]
        errors.append("cycle among %s: %s" % (", ".join(group), "; ".join(steps)))
    for e in errors:
        print("check-layers: " + e)
    print("check-layers: %d files, %d folder edges, %d problems" % (files, len({e for e in edges if e[0] != e[1]}),
                                                                     len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
