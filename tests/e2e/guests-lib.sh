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

# ---- snapshots of a guest's files and sysctls, to show that a step left
# it as it was

# Keys that move by themselves on an idle guest (seen moving between two
# `sysctl -a` a few seconds apart: dentry/inode/file counts, the random
# uuid) or that count events (quota syncs, ptys of ssh sessions); the
# calibration (volatile_calibrate) adds any other key seen moving.
VOLATILE='^(kernel\.random\.|fs\.dentry-state|fs\.inode-(nr|state)|fs\.file-nr|fs\.quota\.|kernel\.pty\.nr|kernel\.ns_last_pid|net\.netfilter\.[^ ]*count)'

# files_snap HOST : every file, link and directory under the watched
# directories with type, mode, link target and mtime, then the sha256 of
# every file. /var/lib/tcptune is tcptune's own state: its directories may
# stay (empty), only files count there.
# shellcheck disable=SC2016 # a program for the guest's sh
files_snap() {
	guest "$1" sh -c '
		for d in /etc/sysctl.d /etc/modules-load.d /etc/systemd/system; do
			find "$d" -printf "%p %y %m %l|%T@\n"
			find "$d" -type f -exec sha256sum {} +
		done
		d=/var/lib/tcptune
		if [ -d $d ]; then
			find $d ! -type d -printf "%p %y %m %l|%T@\n"
			find $d -type f -exec sha256sum {} +
		fi' | sort
}

# sysctl_snap HOST : `sysctl -a` without the volatile keys.
sysctl_snap() {
	guest "$1" sysctl -a 2>/dev/null | grep -Ev "$VOLATILE"
}

# snap HOST TAG : both snapshots into $E2E_TMP/HOST.TAG.{files,sysctl}.
snap() {
	files_snap "$1" >"$E2E_TMP/$1.$2.files"
	sysctl_snap "$1" >"$E2E_TMP/$1.$2.sysctl"
}

# changed_keys A B : the keys whose lines differ between two sysctl snapshots.
changed_keys() {
	diff "$1" "$2" | sed -n 's/^[<>] \([^ ]*\) = .*/\1/p' | sort -u
}

# assert_same DESC EXPECTED_FILE ACTUAL_FILE : identical, else show the diff.
assert_same() {
	if cmp -s "$2" "$3"; then
		e2e_ok "$1 ($(wc -l <"$3") lines)"
	else
		e2e_fail "$1: differs (- before, + after):"
		diff -u "$2" "$3" | tail -n +3 | grep '^[-+]' | head -n 30 |
		    sed 's/^/    | /'
	fi
}

# volatile_calibrate HOST... : two snapshots 5 s apart with nothing run in
# between; a key that moved is volatile too (added to VOLATILE, logged).
volatile_calibrate() {
	local h k
	for h; do
		guest "$h" sysctl -a 2>/dev/null | grep -Ev "$VOLATILE" \
		    >"$E2E_TMP/$h.cal1"
	done
	sleep 5
	for h; do
		guest "$h" sysctl -a 2>/dev/null | grep -Ev "$VOLATILE" \
		    >"$E2E_TMP/$h.cal2"
		for k in $(changed_keys "$E2E_TMP/$h.cal1" "$E2E_TMP/$h.cal2"); do
			e2e_log "$h: $k moved by itself: volatile"
			VOLATILE+="|^${k//./\\.} "
		done
	done
}
