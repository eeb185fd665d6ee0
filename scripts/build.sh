#!/usr/bin/env bash
# Configure and build tcptune (release-ish build in build/, with ASAN=1 the
# sanitizer build in build-asan/, with FUZZ=1 the libFuzzer harnesses in
# build-fuzz/fuzz/, built by clang: see tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build
extra=()
if [ "${ASAN:-0}" = 1 ]; then
	dir=build-asan
	extra=(-DTCPTUNE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
fi
if [ "${FUZZ:-0}" = 1 ]; then
	dir=build-fuzz
	extra=(-DTCPTUNE_FUZZ=ON -DTCPTUNE_TESTS=OFF -DCMAKE_BUILD_TYPE=Debug)
	export CC=clang
fi
cmake -S . -B "$dir" "${extra[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
