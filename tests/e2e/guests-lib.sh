# guests-lib.sh - what the User-mode Linux guest tests share: bring up a
# guest lab (fail with the reason when UML cannot run, never skip), take it
# down on exit, run commands in a guest, log wall times. Source it after
# lib.sh and e2e_init.
# shellcheck shell=bash

# A test of the QEMU lab sets GUESTS (tests/guests/qemu-guests.sh: the same
# interface) and GUESTS_KIND before sourcing this.
GUESTS=${GUESTS:-$E2E_SRC/tests/guests/guests.sh}
GUESTS_KIND=${GUESTS_KIND:-User-mode Linux}

# shellcheck disable=SC2317 # called by the EXIT trap
guests_cleanup() {
	local rc=$? h
	# A failed test shows each guest's sshd log of this boot: what the
	# controller saw as a refused or unanswered request is explained
	# there, and the guests are gone a moment later.
	if [[ $rc != 0 && -n ${GDIR:-} && -n ${HOSTS[*]:-} ]]; then
		for h in "${HOSTS[@]}"; do
			echo "# $h: journalctl -b -u ssh (last 25 lines):"
			timeout 20 "$GUESTS" exec -d "$GDIR" "$h" journalctl -b \
			    -u ssh --no-pager -n 25 2>&1 | sed 's/^/#   /' || true
		done
	fi
	if [[ ${KEEP_LAB:-0} != 1 && -n ${GDIR:-} ]]; then
		"$GUESTS" down -d "$GDIR" >/dev/null 2>&1 || true
	fi
	e2e_cleanup
}
trap guests_cleanup EXIT

# guest HOST CMD... : run CMD as root in a guest of GDIR.
guest() {
	"$GUESTS" exec -d "$GDIR" "$@"
}

# host_block HOST : HOST's lines of the last run's output (its task lines
# and what follows each: a plan's diff and live-values table).
host_block() {
	awk -v h="$1" '/^(ok|changed|failed|skipping): \[/ {
	    on = index($0, "[" h "]") > 0 } on' <<<"$RUN_OUT"
}

# figure WHAT : log the last run's wall time.
figure() {
	e2e_log "figure: $1: $RUN_SECS s"
}

# guests_up N PREFIX NET [UP-OPTION...] : the cached image (built if
# needed), then N guests in GDIR (with guests.sh up's other options:
# --no-default-route, --private NET2); sources their lab.env and fills
# HOSTS and ADDRS. Exits the test with FAIL and the reason when any step
# fails.
guests_up() {
	local out
	if ! out=$("$GUESTS" check 2>&1); then
		echo "FAIL: $GUESTS_KIND guests cannot run here: $out"
		exit 1
	fi
	e2e_run 600 "$GUESTS" image
	if [[ $RUN_RC != 0 ]]; then
		echo "FAIL: ${GUESTS##*/} image failed:"
		e2e_show_run
		exit 1
	fi
	figure "image $RUN_OUT$(grep -q 'built in' <<<"$RUN_ERR" && echo ' (built)')"
	# Each guest may take GUESTS_BOOT_SECS to reach sshd (guests.sh).
	e2e_run "${GUESTS_UP_SECS:-$((${GUESTS_BOOT_SECS:-240} + 360))}" \
	    "$GUESTS" up -n "$1" -d "$GDIR" -p "$2" -a "$3" "${@:4}"
	if [[ $RUN_RC != 0 ]]; then
		echo "FAIL: ${GUESTS##*/} up -n $1 failed:"
		e2e_show_run
		exit 1
	fi
	figure "$1 guests up (boot to sshd)"
	# shellcheck disable=SC1091
	. "$GDIR/lab.env"
	# shellcheck disable=SC2034 # for the sourcing test
	read -r -a HOSTS <<<"$LAB_HOSTS"
	# shellcheck disable=SC2034 # for the sourcing test
	read -r -a ADDRS <<<"$LAB_ADDRS"
}
