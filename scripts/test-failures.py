#!/usr/bin/env python3
"""Names each failed test of a `swift test` pass and the issues it recorded, from the pass's
xUnit report (`swift test --xunit-output R.xml` writes R.xml for XCTest and
R-swift-testing.xml for Swift Testing). Swift Testing's console output, when many suites run in
parallel, can say a suite failed "with 1 issue" without ever printing the issue; the report
always holds it, so a failure seen once on a loaded machine is never lost.

    scripts/test-failures.py R.xml    # prints nothing when no test failed
"""
import os
import sys
import xml.etree.ElementTree as ET


def main() -> None:
    base = sys.argv[1]
    stem = base[:-4] if base.endswith(".xml") else base
    for path in (base, stem + "-swift-testing.xml"):
        if not os.path.exists(path):
            continue
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as error:
            print(f"test-failures: {path}: unreadable report ({error})")
            continue
        for case in root.iter("testcase"):
            for failure in list(case.iter("failure")) + list(case.iter("error")):
                name = f"{case.get('classname', '')}/{case.get('name', '')}"
                message = (failure.get("message") or failure.text or "").strip().replace("\n", " ")
                print(f"test-failures: {name}: {message[:600]}")


if __name__ == "__main__":
    main()
