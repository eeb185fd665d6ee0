#!/usr/bin/env bash
# Check (default) or apply (--fix) the project's .clang-format on every C file.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = --fix ]; then
	clang-format -i "${files[@]}"
else
	clang-format --dry-run --Werror "${files[@]}"
fi
