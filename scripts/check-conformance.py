#!/usr/bin/env python3
"""Checks docs/conformance.md, the table of AFNetworking's test methods beside Gannet's tests.

    check-conformance.py [--table docs/conformance.md] [--methods FILE] [--tests Tests]
    check-conformance.py --extract AFNETWORKING_REPO [--methods FILE]

The check fails when
  - an in-scope AFNetworking test method (scripts/fixtures/afnetworking-test-methods.txt, minus
    the files OUT_OF_SCOPE names) has no row, or has more than one, or a row names a method
    that list does not hold;
  - a row's last cell says "missing", or is neither a reference to Gannet tests nor one of
    "differs: reason", "not applicable on Linux: reason";
  - a referenced Gannet test, written `Target/path/testName` (the file Tests/Target/path.swift),
    does not exist: the file is gone, or it has no `func testName(` under an `@Test` attribute;
  - the counts table under `| Proved by a Gannet test |` does not match the rows.

--extract reads Tests/Tests/*.m of an AFNetworking checkout or bare git directory (the fetch
tool's mirror) and rewrites the committed method list, since CI cannot fetch AFNetworking.
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TABLE = os.path.join(ROOT, "docs", "conformance.md")
DEFAULT_METHODS = os.path.join(ROOT, "scripts", "fixtures", "afnetworking-test-methods.txt")
DEFAULT_TESTS = os.path.join(ROOT, "Tests")

# Files left out of the table, with the reason docs/conformance.md gives.
OUT_OF_SCOPE = {
    "AFAutoPurgingImageCacheTests.m": "image cache",
    "AFImageDownloaderTests.m": "image downloader",
    "AFUIActivityIndicatorViewTests.m": "UIKit",
    "AFUIButtonTests.m": "UIKit",
    "AFUIImageViewTests.m": "UIKit",
    "AFUIRefreshControlTests.m": "UIKit",
    "AFWKWebViewTests.m": "UIKit",
    "AFNetworkActivityManagerTests.m": "UIKit (AFNetworkActivityIndicatorManager, UIKit+AFNetworking)",
}

METHOD = re.compile(r"^\s*-\s*\(void\)\s*(test\w*)", re.MULTILINE)
REFERENCE = re.compile(r"`([A-Za-z0-9_]+(?:/[A-Za-z0-9_+]+)+)`")
KINDS = (
    ("differs:", "deliberate difference"),
    ("not applicable on Linux:", "not applicable"),
)


def extract(repo, methods_path):
    def git(*args):
        return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout

    commit = git("rev-parse", "HEAD").strip()
    names = [n for n in git("ls-tree", "--name-only", "HEAD", "Tests/Tests/").split() if n.endswith(".m")]
    lines = [
        "# AFNetworking's test methods (Tests/Tests/*.m), one `File.m testName` a line.",
        f"# Extracted by scripts/check-conformance.py --extract from AFNetworking {commit}.",
    ]
    for name in sorted(names):
        for method in METHOD.findall(git("show", f"HEAD:{name}")):
            lines.append(f"{os.path.basename(name)} {method}")
    with open(methods_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"check-conformance: wrote {len(lines) - 2} methods to {os.path.relpath(methods_path, ROOT)}")


def read_methods(path):
    methods = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                file, method = line.split()
                methods.append((file, method))
    return methods


def read_rows(path):
    """Rows of the tables whose header starts `| AFNetworking file | Test |`."""
    rows = []
    in_table = False
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.startswith("|"):
                in_table = False
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[:2] == ["AFNetworking file", "Test"]:
                in_table = True
                continue
            if not in_table or set(cells[0]) <= set("-: "):
                continue
            if len(cells) != 4:
                rows.append((number, None, None, None, f"expected 4 cells, found {len(cells)}"))
                continue
            rows.append((number, cells[0].strip("`"), cells[1].strip("`"), cells[3], None))
    return rows


def test_exists(tests_root, reference, cache):
    parts = reference.split("/")
    path = os.path.join(tests_root, *parts[:-1]) + ".swift"
    name = parts[-1]
    if path not in cache:
        cache[path] = open(path).read() if os.path.isfile(path) else None
    source = cache[path]
    if source is None:
        return f"no file {os.path.relpath(path, ROOT)}"
    for match in re.finditer(r"\bfunc\s+" + re.escape(name) + r"\s*[(<]", source):
        before = source[: match.start()].split("\n")
        # The attributes of the declaration: the lines above it up to the previous declaration.
        window = "\n".join(before[-12:])
        window = re.split(r"\n\s*(?:\}|.*\bfunc\s)", window)[-1]
        if "@Test" in window:
            return None
    return f"no @Test func {name}( in {os.path.relpath(path, ROOT)}"


def check(args):
    methods = read_methods(args.methods)
    in_scope = [(f, m) for f, m in methods if f not in OUT_OF_SCOPE]
    left_out = len(methods) - len(in_scope)
    rows = read_rows(args.table)
    problems = []
    seen = {}
    counts = {"proved by a Gannet test": 0}
    for _, kind in KINDS:
        counts[kind] = 0
    cache = {}
    known = set(in_scope)
    for number, file, method, cell, error in rows:
        where = f"{os.path.relpath(args.table, ROOT)}:{number}"
        if error:
            problems.append(f"{where}: {error}")
            continue
        key = (file, method)
        if key not in known:
            problems.append(f"{where}: {file} {method} is not an in-scope AFNetworking test method")
        if key in seen:
            problems.append(f"{where}: {file} {method} already has a row at line {seen[key]}")
        seen[key] = number
        if re.search(r"\bmissing\b", cell, re.IGNORECASE):
            problems.append(f"{where}: {method} says missing")
        kind = next((k for prefix, k in KINDS if cell.startswith(prefix)), None)
        references = REFERENCE.findall(cell)
        if kind is None:
            if not references:
                problems.append(f"{where}: {method} names no Gannet test and no reason")
                continue
            kind = "proved by a Gannet test"
        elif len(cell.split(":", 1)[1].strip()) < 3:
            problems.append(f"{where}: {method}: '{cell}' gives no reason")
        for reference in references:
            missing = test_exists(args.tests, reference, cache)
            if missing:
                problems.append(f"{where}: {method} references {reference}: {missing}")
        counts[kind] += 1
    for file, method in in_scope:
        if (file, method) not in seen:
            problems.append(f"{os.path.relpath(args.table, ROOT)}: no row for {file} {method}")
    stated = re.search(r"^\| Proved by a Gannet test \|.*\n\|[-| ]+\|\n\| *(\d+) *\| *(\d+) *\| *(\d+) *\|", open(args.table).read(), re.MULTILINE)
    actual = [counts[k] for k in ("proved by a Gannet test", "deliberate difference", "not applicable")]
    if not stated or [int(n) for n in stated.groups()] != actual:
        problems.append(
            f"{os.path.relpath(args.table, ROOT)}: the counts table must read "
            f"| {' | '.join(map(str, actual))} | (proved, differs, not applicable)"
        )
    for problem in problems:
        print(f"check-conformance: {problem}", file=sys.stderr)
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    print(
        f"check-conformance: {len(methods)} AFNetworking test methods, {left_out} out of scope, "
        f"{len(in_scope)} in scope: {summary}"
    )
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default=DEFAULT_TABLE)
    parser.add_argument("--methods", default=DEFAULT_METHODS)
    parser.add_argument("--tests", default=DEFAULT_TESTS)
    parser.add_argument("--extract", metavar="AFNETWORKING_REPO")
    args = parser.parse_args()
    if args.extract:
        extract(args.extract, args.methods)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
