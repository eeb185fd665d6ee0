# shellcheck shell=bash
# cli-lib.sh - the counters of the cli-*.sh tests, which need no host and no
# root (the lab tests use lib.sh). Source it, then:
#   ok DESC / not_ok DESC    one "ok:" or "FAIL:" line, counted
#   cli_finish NAME          "NAME: N passed, N failed"; false if any failed
passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
not_ok() { echo "FAIL: $1"; failed=$((failed + 1)); }
cli_finish() {
	echo "$1: $passed passed, $failed failed"
	[[ $failed == 0 ]]
}
