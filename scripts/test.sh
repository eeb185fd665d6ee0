#!/usr/bin/env bash
# The test command: build, run every test (unit, lint of the examples,
# Ansible comparison, and the lab end-to-end tests, which need root), then
# the Debian package installed and removed (scripts/package-test.sh), then
# the unit tests again under ASan/UBSan, then every fuzz harness replayed
# over its corpus and regression inputs: deterministic, no random search
# (that is the long tier, scripts/fuzz.sh --seconds 600: tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/as-root.sh
. scripts/as-root.sh
as_root "the lab tests create network namespaces and guests" "$@"
./scripts/build.sh
# every test but the long tier (label guests-long: tests/guests/README.md)
ctest --test-dir build --output-on-failure -LE guests-long
# the .deb: build, apt-get install, check, remove (about 30 s)
./scripts/package-test.sh build
ASAN=1 ./scripts/build.sh
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -L unit
./scripts/fuzz.sh --replay --jobs 2
