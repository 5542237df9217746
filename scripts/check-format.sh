#!/usr/bin/env bash
# Every Swift file git tracks is formatted as .swift-format says (4 spaces, 120 columns, the rule
# set of swift-nio and swift-http-types), checked with the toolchain's `swift format lint --strict`:
# any finding fails. `make format` rewrites the tree to match; a rule that must not apply to one
# declaration is switched off there with `// swift-format-ignore: Rule` and a reason.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! swift format --version >/dev/null 2>&1; then
    echo "check-format: this toolchain has no swift-format (Swift 6 ships it as \`swift format\`)" >&2
    exit 1
fi
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(git ls-files -z '*.swift')
if swift format lint --strict --parallel --configuration .swift-format "${files[@]}"; then
    echo "check-format: ${#files[@]} Swift files lint clean"
else
    echo "check-format: findings above; \`make format\` fixes most of them" >&2
    exit 1
fi
