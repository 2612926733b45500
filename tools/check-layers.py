#!/usr/bin/env python3
"""check-layers.py [ROOT]: fails where an #include "..." of the library's
sources points upward or across its layers, or where folders include each
other in a cycle.

The layers, bottom first; a folder may include its own files and those of
folders in layers below its own, never one beside it or above it. Top
level: the public headers (include/), core/, then the GPU engine and the
real FFTW beside each other, dispatch/ over both, the FFTW API (shim/),
and the MPI layer on top; the engine is dispatch's alone, so the shim and
the MPI layer reach the GPU through dispatch. Inside engine/: the API
(engine/engine.h), the CUDA context and the solver record beside it, the
cuFFT plans and our kernels, the staging primitives, the solvers, and the
planner with the table of them all. Every folder of engine/ not named
below is a solver's: a new solver is a folder that this check places
without being told, and that may include no other solver's. Inside mpi/:
the composed plans and FFTW's data distribution (mpi/composed/) under the
fftw_mpi_* entry points (mpi/'s own files). tests/, bench/, tools/,
examples/ and compat/ sit above everything and are not checked.
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
# A folder that only the folders named may include, of those above it.
ONLY_FROM = {"engine": {"dispatch"}}
# In a layer list, the set of every subfolder no other layer names.
SOLVERS = "the solvers"
# The folders split into layers of their own: the name their root files
# go by, and their subfolders' layers, bottom first.
SUBLAYERS = {
    "engine": ("engine.h", [
        {"engine.h"},
        {"device", "solver"},
        {"cufft", "kernels"},
        {"staging", "r2r"},
        SOLVERS,
        {"plan"},
    ]),
    "mpi": ("api", [
        {"composed"},
        {"api"},
    ]),
}
SOURCES = (".h", ".cuh", ".c", ".cc", ".cu", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def rank_of(layers, present):
    """Each name's layer; SOLVERS places each of `present` that no other
    layer names."""
    named = {n for layer in layers if layer != SOLVERS for n in layer}
    return {name: i for i, layer in enumerate(layers)
            for name in (sorted(set(present) - named) if layer == SOLVERS else layer)}


def sub_ranks(root):
    """The layer ranks inside each folder of SUBLAYERS, from its subfolders
    as they lie under root."""
    ranks = {}
    for top, (root_name, layers) in SUBLAYERS.items():
        folder = os.path.join(root, top)
        present = [d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d))] if os.path.isdir(folder) else []
        ranks[top] = rank_of(layers, present + [root_name])
    return ranks


TOP_RANK = rank_of(TOP_LAYERS, [])


def node(root, path):
    """The layer node of a file: its top-level folder, or top/<subfolder>
    for a folder of SUBLAYERS (its own root files: top/<their name>)."""
    parts = os.path.relpath(path, root).split(os.sep)
    if parts[0] not in SUBLAYERS:
        return parts[0]
    return parts[0] + "/" + (parts[1] if len(parts) > 2 else SUBLAYERS[parts[0]][0])


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


def allowed(src, dst, ranks):
    """'' where src may include dst, else why not."""
    if src == dst:
        return ""
    top, dst_top = src.split("/")[0], dst.split("/")[0]
    if top == dst_top and top in ranks:
        return verdict(src[len(top) + 1:], dst[len(top) + 1:], ranks[top], lambda n: top + "/" + n)
    why = verdict(top, dst_top, TOP_RANK, lambda n: n + "/")
    if not why and dst_top in ONLY_FROM and top not in ONLY_FROM[dst_top]:
        why = "%s/ is reached through %s only" % (dst_top, ", ".join(d + "/" for d in sorted(ONLY_FROM[dst_top])))
    return why


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
    ranks = sub_ranks(root)
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
                        why = allowed(src, dst, ranks)
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
