#!/bin/sh
# An honest bot in POSIX shell (docs/protocol.md, section 6): answers "action <id> #0", the first
# legal option, to every request.  Used by tests/tournament/test_sandbox_runtimes.py.
while IFS= read -r line; do
    set -f
    # shellcheck disable=SC2086  # the words of the line, on purpose
    set -- $line
    case "$1" in
        trickcore) printf 'id name shell-first\nid author trickcore tests\ntrickcoreok 1\n' ;;
        isready) printf 'readyok %s\n' "$2" ;;
        request) printf 'action %s #0\n' "$2" ;;
        quit) exit 0 ;;
    esac
done
