#!/usr/bin/env bash
# Regenerates gannet's manual (docs/man/gannet.1) and shell completions (completions/) from the
# one OptionTable, with the built binary's hidden generators. GannetCLITests'
# GeneratedFilesTests fails until the checked-in copies match, so run this after changing an
# option and commit the result.
#
#   bash scripts/generate-cli-files.sh            # builds gannet (debug) first
#   GANNET_BINARY=/path/to/gannet bash scripts/generate-cli-files.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${GANNET_BINARY:-}" ]]; then
    swift build --product gannet >/dev/null
    GANNET_BINARY="$(swift build --show-bin-path)/gannet"
fi
mkdir -p docs/man completions
"$GANNET_BINARY" --generate-man >docs/man/gannet.1
"$GANNET_BINARY" --generate-completion bash >completions/gannet.bash
"$GANNET_BINARY" --generate-completion zsh >completions/_gannet
"$GANNET_BINARY" --generate-completion fish >completions/gannet.fish
echo "wrote docs/man/gannet.1 and completions/{gannet.bash,_gannet,gannet.fish}"
