#!/usr/bin/env python3
"""Type-checks every fenced ```swift block of Markdown files against Gannet's built modules.

    scripts/check-docs.py --modules DIR [--root DIR] [FILE_OR_DIRECTORY ...]

Usually run through scripts/check-docs.sh, which builds Gannet first and passes --modules.
Without files it checks README.md and docs/*.md, except a page whose first line is
`<!-- check-docs: integrations -->` (scripts/test-integrations.sh checks it against the
integration packages' modules). Exits 1 when a snippet does not compile
(printing the Markdown file:line of the snippet line and the compiler's message), 2 on a bad
marker or usage. docs/README.md ("Snippets compile") describes the markers:

  (no marker)                           the block is a whole main.swift: top-level code
  <!-- snippet: fragment -->            the block is the body of a `throws` function (`async`
                                        when the block awaits),
  <!-- snippet: fragment(a: T, b: U) -->  with those parameters in scope, every Gannet module
                                        imported; its declarations stay local to it
  <!-- snippet: fragment(...) sync-only reason="..." -->  a fragment that compiles only in a
                                        synchronous function (the page must say so, the reason
                                        says why)

A block that does not await is checked in both contexts a reader may paste it into: as written
(a synchronous function, or main.swift), and in an asynchronous one (an `async throws` function,
or main.swift with a top-level `await`), where Swift 6 refuses APIs marked unavailable from
asynchronous contexts (OperationQueue.addOperations(_:waitUntilFinished:)). An error in the
second is reported with "(in an async context)".
  <!-- snippet: skip reason="..." -->   not compiled; the reason is mandatory
  <!-- snippet: keep -->                a whole main.swift, like no marker, whose declarations are
                                        then added to the file's context for the later snippets
  <!-- snippet-context                  Swift declarations (types, functions) put at file scope
  ...                                   before every later snippet of the same file; contexts
  -->                                   add up, an empty one (<!-- snippet-context -->) clears

A marker is the last non-blank line before the opening fence.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

GANNET_IMPORTS = [
    "Foundation",
    "GannetCore",
    "GannetRequestSerialization",
    "GannetResponseSerialization",
    "Gannet",
    "GannetSecurity",
    "GannetXML",
    "GannetReachability",
]

MARKER = re.compile(r"^<!--\s*snippet:\s*(?P<body>.*?)\s*-->$")
FRAGMENT = re.compile(r'^fragment(?:\((?P<params>.*)\))?(?:\s+sync-only\s+reason="(?P<sync_reason>[^"]*)")?$')
SKIP = re.compile(r'^skip\s+reason="(?P<reason>[^"]*)"$')
IMPORT = re.compile(r"^\s*(@\w+\s+)?((public|internal|package|private|fileprivate)\s+)?import\s+\w")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>\S*)")


class MarkerError(Exception):
    pass


@dataclass
class Context:
    # each Swift line with its 1-based doc line
    lines: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class Snippet:
    doc: Path
    line: int  # 1-based doc line of the block's first Swift line
    lines: list[str]
    mode: str  # "main", "fragment", "skip"
    params: str = ""
    reason: str = ""
    keep: bool = False
    context: Context | None = None
    sync_only: bool = False

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def parse(doc: Path) -> list[Snippet]:
    text = doc.read_text(encoding="utf-8").split("\n")
    snippets: list[Snippet] = []
    context: Context | None = None
    i = 0
    while i < len(text):
        stripped = text[i].strip()
        if stripped.startswith("<!--") and stripped[4:].lstrip().startswith("snippet-context"):
            start = i
            body: list[str] = []
            rest = stripped[4:].lstrip()[len("snippet-context"):]
            if rest.strip().endswith("-->"):
                inline = rest.strip()[:-3].strip()
                body = [inline] if inline else []
            else:
                i += 1
                while i < len(text) and text[i].strip() != "-->":
                    body.append(text[i])
                    i += 1
                if i == len(text):
                    raise MarkerError(f"{doc}:{start + 1}: snippet-context is not closed by a line '-->'")
            added = [(line, start + 2 + n) for n, line in enumerate(body)]
            context = Context((context.lines if context else []) + added) if added else None
            i += 1
            continue
        fence = FENCE.match(text[i])
        if not fence:
            i += 1
            continue
        info, marker_fence = fence.group("info"), fence.group("fence")
        start = i + 1
        j = start
        while j < len(text) and not text[j].strip().startswith(marker_fence):
            j += 1
        if info == "swift":
            indent = len(fence.group("indent"))
            block = [line[indent:] if line[:indent].isspace() else line.lstrip() for line in text[start:j]]
            snippet = _snippet(doc, text, i, block, context)
            snippets.append(snippet)
            if snippet.keep:
                kept = [(line, snippet.line + n) for n, line in enumerate(block)]
                context = Context((context.lines if context else []) + kept)
        i = j + 1
    return snippets


def _snippet(doc: Path, text: list[str], fence_index: int, block: list[str], context: Context | None) -> Snippet:
    k = fence_index - 1
    while k >= 0 and not text[k].strip():
        k -= 1
    marker = MARKER.match(text[k].strip()) if k >= 0 else None
    snippet = Snippet(doc=doc, line=fence_index + 2, lines=block, mode="main", context=context)
    if not marker:
        if k >= 0 and re.match(r"^<!--\s*snippet\b", text[k].strip()) and not text[k].strip().startswith("<!-- snippet-context"):
            raise MarkerError(f"{doc}:{k + 1}: unreadable snippet marker {text[k].strip()!r}")
        return snippet
    body = marker.group("body")
    if m := FRAGMENT.match(body):
        snippet.mode = "fragment"
        snippet.params = (m.group("params") or "").strip()
        if m.group("sync_reason") is not None:
            if not m.group("sync_reason").strip():
                raise MarkerError(f"{doc}:{k + 1}: sync-only needs a reason: sync-only reason=\"...\"")
            snippet.sync_only = True
    elif body == "keep":
        snippet.keep = True
    elif body.startswith("skip"):
        m = SKIP.match(body)
        if not m or not m.group("reason").strip():
            raise MarkerError(f"{doc}:{k + 1}: a skipped snippet needs a reason: <!-- snippet: skip reason=\"...\" -->")
        snippet.mode = "skip"
        snippet.reason = m.group("reason")
    else:
        raise MarkerError(
            f"{doc}:{k + 1}: unknown snippet marker {body!r}: use fragment, fragment(PARAMETERS), keep or skip reason=\"...\""
        )
    return snippet


@dataclass
class Generated:
    source: str
    # generated line (1-based) -> (doc, doc line, columns added in front, context note)
    lines: dict[int, tuple[Path, int, int, str]]
    parse_as_library: bool
    # main.swift again with a top-level `await`, for a block that does not await
    async_source: str | None = None


ASYNC_NOTE = " (in an async context)"


def generate(snippet: Snippet, imports: list[str]) -> Generated:
    out: list[str] = []
    mapping: dict[int, tuple[Path, int, int, str]] = {}

    def emit(line: str, origin: tuple[Path, int] | None = None, indent: int = 0, note: str = "") -> None:
        out.append(" " * indent + line)
        if origin:
            mapping[len(out)] = (origin[0], origin[1], indent, note)

    body = list(enumerate(snippet.lines))
    if snippet.mode == "fragment":
        for module in imports:
            emit(f"import {module}")
        # The block's own imports go to file scope, where Swift allows them.
        for offset, line in body:
            if IMPORT.match(line):
                emit(line, (snippet.doc, snippet.line + offset))
        body = [(offset, "" if IMPORT.match(line) else line) for offset, line in body]
    if snippet.context:
        for line, doc_line in snippet.context.lines:
            emit(line, (snippet.doc, doc_line))
    awaits = any(re.search(r"\bawait\b", line) for _, line in body)
    if snippet.mode == "fragment":
        # A block that awaits needs an async function; one that does not is checked in both a
        # synchronous and an asynchronous one (some APIs, such as
        # OperationQueue.addOperations(_:waitUntilFinished:), are unavailable from asynchronous
        # contexts), unless marked sync-only.
        contexts = [("snippet", "async throws", "")] if awaits else [("snippet", "throws", "")]
        if not awaits and not snippet.sync_only:
            contexts.append(("snippetInAsyncContext", "async throws", ASYNC_NOTE))
        for name, effects, note in contexts:
            emit(f"func {name}({snippet.params}) {effects} {{", (snippet.doc, snippet.line - 1), note=note)
            for offset, line in body:
                emit(line, (snippet.doc, snippet.line + offset), indent=4, note=note)
            emit("}")
    else:
        for offset, line in enumerate(snippet.lines):
            emit(line, (snippet.doc, snippet.line + offset))
    source = "\n".join(out) + "\n"
    if snippet.mode != "fragment" and not awaits:
        # The same top-level code in an async context: a top-level `await` makes main.swift one
        # (SE-0343). Checked as a second file, so that the first keeps its own diagnostics.
        async_source = source + "await Task.yield()\n"
        return Generated(source, mapping, parse_as_library=False, async_source=async_source)
    return Generated(source, mapping, parse_as_library=snippet.mode == "fragment")


DIAGNOSTIC = re.compile(r"^(?P<file>[^:\s]+\.swift):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning|note): (?P<message>.*)$")


def check(snippet: Snippet, index: int, scratch: Path, swiftc_flags: list[str], imports: list[str]) -> tuple[Snippet, bool, str]:
    generated = generate(snippet, imports)
    directory = scratch / f"snippet-{index:03d}"
    report = _typecheck(generated, generated.source, directory, swiftc_flags, "")
    if not report and generated.async_source is not None:
        report = _typecheck(generated, generated.async_source, directory / "async", swiftc_flags, ASYNC_NOTE)
    return snippet, not report, "\n".join(report)


def _typecheck(generated: Generated, text: str, directory: Path, swiftc_flags: list[str], note: str) -> list[str]:
    """The errors of one generated source, at their Markdown lines; empty when it compiles."""
    directory.mkdir(parents=True, exist_ok=True)
    source = directory / ("snippet.swift" if generated.parse_as_library else "main.swift")
    source.write_text(text, encoding="utf-8")
    command = ["swiftc", "-typecheck", "-swift-version", "6", *swiftc_flags]
    if generated.parse_as_library:
        command.append("-parse-as-library")
    command.append(str(source))
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 0:
        return []
    report: list[str] = []
    for raw in (result.stdout + result.stderr).splitlines():
        m = DIAGNOSTIC.match(raw)
        if m and Path(m.group("file")).name == source.name:
            if m.group("kind") == "warning":
                continue
            origin = generated.lines.get(int(m.group("line")))
            column = int(m.group("column"))
            if origin:
                where = f"{origin[0]}:{origin[1]}:{max(1, column - origin[2])}"
                context = origin[3] or note
            else:
                where, context = f"{source}:{m.group('line')}:{column}", note
            report.append(f"{where}: {m.group('kind')}: {m.group('message')}{context}")
        elif m is None and raw.strip() and not raw.startswith(("warning:", "note:")) and "|" not in raw[:12]:
            report.append(f"  {raw}")
    if not report:
        report.append(f"  swiftc exited with status {result.returncode}: {(result.stdout + result.stderr).strip()}")
    report.append(f"  (generated source: {source})")
    return report


INTEGRATIONS_MARKER = "<!-- check-docs: integrations -->"


def is_integrations_page(doc: Path) -> bool:
    """Whether the page's first line is INTEGRATIONS_MARKER: its snippets import the modules of
    the packages under Integrations/, which Gannet's own build does not have."""
    with doc.open(encoding="utf-8") as file:
        return file.readline().strip() == INTEGRATIONS_MARKER


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", required=True, help="directory holding Gannet's .swiftmodule files")
    parser.add_argument("--root", default=".", help="the Gannet checkout (for the C module maps)")
    parser.add_argument("--scratch", help="where to write generated sources (default: a temporary directory)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()

    root = Path(args.root)
    paths = [Path(p) for p in args.paths] or [root / "README.md", root / "docs"]
    docs: list[Path] = []
    for path in paths:
        if path.is_dir():
            # A page marked for the integrations is checked by scripts/test-integrations.sh,
            # against the modules of Integrations/ (docs/integrations.md), when named alone.
            docs += [doc for doc in sorted(path.glob("*.md")) if not is_integrations_page(doc)]
        elif path.is_file():
            docs.append(path)
        else:
            print(f"check-docs: no such file or directory: {path}", file=sys.stderr)
            return 2

    snippets: list[Snippet] = []
    try:
        for doc in docs:
            snippets += parse(doc)
    except MarkerError as error:
        print(f"check-docs: {error}", file=sys.stderr)
        return 2

    flags = ["-I", args.modules]
    for module in ["CCurl", "COpenSSL", "CLibXML2", "CPSL"]:
        flags += ["-I", str(root / "Modules" / module)]
    libxml = subprocess.run(["pkg-config", "--cflags-only-I", "libxml-2.0"], capture_output=True, text=True)
    for flag in libxml.stdout.split():
        flags += ["-Xcc", flag]

    # A fragment imports every Gannet library module that was built (Foundation first).
    imports = [m for m in GANNET_IMPORTS if m == "Foundation" or (Path(args.modules) / f"{m}.swiftmodule").exists()]
    scratch = Path(args.scratch) if args.scratch else Path(tempfile.mkdtemp(prefix="gannet-check-docs-"))
    compiled = [s for s in snippets if s.mode != "skip"]
    skipped = [s for s in snippets if s.mode == "skip"]
    failures: list[tuple[Snippet, str]] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(check, s, n, scratch, flags, imports) for n, s in enumerate(compiled)]
        for future in futures:
            snippet, ok, report = future.result()
            if not ok:
                failures.append((snippet, report))

    for snippet, report in failures:
        print(f"FAIL {snippet.where} ({snippet.mode}{'(' + snippet.params + ')' if snippet.params else ''})")
        print(report)
    print(
        f"check-docs: {len(compiled) - len(failures)} of {len(compiled)} snippet(s) compile, "
        f"{len(skipped)} skipped with a reason, in {len(docs)} file(s)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
