# as-root.sh - sourced by the scripts that need root (setup, demo, test,
# package-test): as_root "$@" returns at once for root, re-runs the script
# under sudo for a user who has it, and otherwise stops with a clear error.
# A fresh minimal Debian where you are root has no sudo at all, so no
# command of README.md may start with it. Call it after the script's
# `cd "$(dirname "$0")/.."`: it runs scripts/NAME again from there.
# shellcheck shell=bash

# as_root WHY "$@" : WHY says what needs root, for the error.
as_root() {
	local why=$1
	shift
	[ "$(id -u)" -eq 0 ] && return 0
	if command -v sudo >/dev/null 2>&1; then
		echo "$(basename "$0"): not root: running it again under sudo" >&2
		exec sudo -- "$PWD/scripts/$(basename "$0")" "$@"
	fi
	echo "$(basename "$0"): run as root ($why); sudo is not installed" >&2
	exit 1
}
