#!/usr/bin/env bash
# Configure and build tcptune (release-ish build in build/, and with
# ASAN=1 the sanitizer build in build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build
extra=()
if [ "${ASAN:-0}" = 1 ]; then
	dir=build-asan
	extra=(-DTCPTUNE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
fi
cmake -S . -B "$dir" "${extra[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
