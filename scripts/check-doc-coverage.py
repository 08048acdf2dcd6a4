#!/usr/bin/env python3
"""Fails on any public symbol without a doc comment, naming FILE:LINE and the symbol.

Usage: scripts/check-doc-coverage.py SYMBOLGRAPH_DIR [--module NAME ...] [--all] [--summary]

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes
(NAME.symbols.json, and NAME@OTHER.symbols.json for NAME's extensions of other modules' types).
With --module, checks those modules; with --all, every module it finds there; with neither, the
modules in CHECKED_MODULES below. --summary prints one line per module (public symbols, documented,
missing) and does not fail. Exit status: 0 when every checked symbol is documented, 1 when one is
not, 2 on a usage error or a missing symbol graph.

A symbol counts as documented when the symbol graph gives it a doc comment with some text. Its own
`///` comment gives it one; so does the requirement it implements: swift-symbolgraph-extract copies
a protocol requirement's doc comment to an undocumented implementation, so `==`, `hash(into:)`,
`description`, `errorDescription`, `makeIterator()` and the like read the standard library's or
Foundation's text, and a transport's `read(_:)` reads GATTLink's. (A requirement of ours that has no
doc comment is itself reported where it is declared.)

Ignored, because no source line in this package declares them and DocC documents them from their
origin:
- synthesized members: identifiers containing `::SYNTHESIZED::` (default implementations a type
  inherits from a protocol extension, e.g. `!=`, `hashValue`, `localizedDescription`);
- symbols without a source location: what the compiler writes for us (a raw-value enum's
  `init(rawValue:)`, Codable's `init(from:)` / `encode(to:)`, a struct's memberwise `init`).
"""
import json
import os
import sys
from urllib.parse import unquote, urlparse

# The modules whose public symbols are all documented: every library module `make docs` documents.
CHECKED_MODULES = [
    "DFUBytes", "DFUPackage", "DFUProfile", "DFUGATT", "DFUSimulator", "DFUHCI", "DFUATT",
    "DFUHCITransport", "DFUEngine", "DFUTrace", "DFUBatch", "DFULedger", "DFUBlueZ", "DFUKit", "DFUWire", "DFUSerial", "DFUCapture",
    "DFUStation",
]
NOT_YET_CHECKED = []


def graph_files(directory, module):
    """The symbol graph files of `module`: its own and its extensions of other modules."""
    names = sorted(os.listdir(directory))
    return [os.path.join(directory, n) for n in names
            if n == f"{module}.symbols.json" or (n.startswith(f"{module}@") and n.endswith(".symbols.json"))]


def doc_text(symbol):
    lines = (symbol.get("docComment") or {}).get("lines") or []
    return "".join(line.get("text", "") for line in lines).strip()


def where(symbol, root):
    location = symbol.get("location") or {}
    path = unquote(urlparse(location.get("uri", "")).path)
    if root and path.startswith(root.rstrip("/") + "/"):
        path = path[len(root.rstrip("/")) + 1:]
    line = (location.get("position") or {}).get("line", 0) + 1  # the graph counts lines from 0
    return path, line


def check_module(directory, module, root):
    """Returns (public symbols checked, undocumented [((file, line), name, kind)]) for one module."""
    files = graph_files(directory, module)
    if not any(os.path.basename(f) == f"{module}.symbols.json" for f in files):
        raise FileNotFoundError(f"{directory}/{module}.symbols.json")
    checked, missing = 0, []
    for path in files:
        with open(path) as handle:
            graph = json.load(handle)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or "location" not in symbol:
                continue
            checked += 1
            if not doc_text(symbol):
                name = ".".join(symbol.get("pathComponents") or [symbol["names"]["title"]])
                missing.append((where(symbol, root), name, symbol["kind"]["displayName"]))
    return checked, sorted(missing)  # by file, then line


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    directory, rest = args[0], args[1:]
    summary = "--summary" in rest
    modules = [rest[i + 1] for i, a in enumerate(rest) if a == "--module" and i + 1 < len(rest)]
    if "--all" in rest:
        modules = sorted({n.split("@")[0].split(".")[0] for n in os.listdir(directory) if n.endswith(".symbols.json")})
    if not modules:
        modules = CHECKED_MODULES
    root = os.getcwd()
    total_missing = 0
    for module in modules:
        try:
            checked, missing = check_module(directory, module, root)
        except FileNotFoundError as error:
            print(f"error: no symbol graph for {module}: {error} (run swift package dump-symbol-graph)",
                  file=sys.stderr)
            return 2
        total_missing += len(missing)
        if summary:
            print(f"{module}: {checked} public symbols, {checked - len(missing)} documented, {len(missing)} missing")
            continue
        for (path, line), name, kind in missing:
            print(f"{path}:{line}: error: public {kind.lower()} {module}.{name} has no doc comment")
    if summary:
        return 0
    if total_missing:
        print(f"{total_missing} public symbol(s) without a doc comment in {', '.join(modules)}", file=sys.stderr)
        return 1
    unchecked = f" (not checked yet: {', '.join(NOT_YET_CHECKED)})" if NOT_YET_CHECKED else ""
    print(f"every public symbol documented in {', '.join(modules)}{unchecked}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
