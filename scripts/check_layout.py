#!/usr/bin/env python3
"""Checks the workspace's layout rules (issue 55): no Rust source file over 1,000 lines,
no import circle between the modules of any crate, and no `json!` in ddz-protocol's sources.

A module is a source file (`foo.rs`, or `foo/mod.rs` for a directory module). Module A
depends on module B when A's code names B by path (`crate::b::...`, `super::b`, or a bare
`b::` for a child declared in A). A parent module's `mod child;` and `pub use child::...`
lines are structure, not dependence, and are not counted. Exit status 1 on any breach,
each named with its file.
"""
import os
import re
import sys

MAX_LINES = 1000
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def rust_files(top):
    for base, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in ("target", "node_modules", ".git")]
        for f in files:
            if f.endswith(".rs"):
                yield os.path.join(base, f)


def module_path(src, path):
    """The module path of a file under a crate's src/: `search::playout`, `` for lib.rs."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def strip(code):
    """The code without comments, string literals and attribute-only lines."""
    code = re.sub(r"//[^\n]*", "", code)
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
    return code


def crate_modules(src):
    mods = {}
    for path in rust_files(src):
        mods[module_path(src, path)] = path
    return mods


def edges(src, mods):
    graph = {m: set() for m in mods}
    for mod, path in mods.items():
        code = strip(open(path, encoding="utf-8").read())
        # An inline test module (`#[cfg(test)] mod tests { use super::*; ... }`, at the end of
        # its file) names its own parent with `super::`: not a dependence of the file.
        code = re.split(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", code)[0]
        children = {k[-1] for k in mods if len(k) == len(mod) + 1 and k[: len(mod)] == mod}
        for line in code.split(";"):
            text = line.strip()
            if re.match(r"^(#\[[^\]]*\]\s*)*(pub(\([^)]*\))?\s+)?mod\s+\w+$", text):
                continue
            # Re-exports of a child's items by its parent are structure.
            m = re.match(r"^(#\[[^\]]*\]\s*)*pub(\([^)]*\))?\s+use\s+(self::)?(\w+)", text)
            if m and m.group(4) in children:
                continue
            for target in referenced(text, mod, children):
                # The deepest known module named by the path.
                while target and target not in mods:
                    target = target[:-1]
                if target != mod:
                    graph[mod].add(target)
    return graph


def referenced(text, mod, children):
    out = []
    for m in re.finditer(r"\bcrate((?:::\w+)+)", text):
        out.append(tuple(m.group(1).split("::")[1:]))
    for m in re.finditer(r"\b((?:super::)+)((?:\w+::)*\w+)", text):
        ups = m.group(1).count("super::")
        base = mod[: len(mod) - ups]
        out.append(base + tuple(m.group(2).split("::")))
    for m in re.finditer(r"\b(?:self::)?(\w+)::", text):
        if m.group(1) in children:
            out.append(mod + (m.group(1),))
    # Grouped imports: `crate::{a::X, b::Y}`.
    for m in re.finditer(r"\bcrate::\{([^}]*)\}", text):
        for part in m.group(1).split(","):
            name = part.strip().split("::")[0]
            if name:
                out.append((name,))
    return out


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    failures = []
    for path in rust_files(ROOT):
        n = sum(1 for _ in open(path, encoding="utf-8"))
        if n > MAX_LINES:
            failures.append(f"{os.path.relpath(path, ROOT)}: {n} lines (at most {MAX_LINES})")
    crates = os.path.join(ROOT, "crates")
    for crate in sorted(os.listdir(crates)):
        src = os.path.join(crates, crate, "src")
        if not os.path.isdir(src):
            continue
        mods = crate_modules(src)
        graph = edges(src, mods)
        for comp in cycles(graph):
            names = sorted("::".join(m) or "lib" for m in comp)
            failures.append(f"crates/{crate}: import circle between {', '.join(names)}")
    # ddz-protocol's messages are serde types: no `json!` building them by hand.
    protocol = os.path.join(crates, "ddz-protocol", "src")
    for path in rust_files(protocol):
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            if "json!" in line:
                failures.append(f"{os.path.relpath(path, ROOT)}:{number}: json! in ddz-protocol")
    for f in failures:
        print(f)
    if failures:
        sys.exit(1)
    print("layout: no file over 1,000 lines, no import circle, no json! in ddz-protocol")


if __name__ == "__main__":
    main()
