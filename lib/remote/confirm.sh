# tcptune confirm: the host's own revert of a live change that the
# controller does not confirm in time (tcptune play --confirm-timeout, a
# "try" mode as `netplan try` and Juniper's `commit confirmed`).
#
# Functions only: tcptune sends this file before lib/remote/apply.sh in one
# program (apply_call, lib/remote/apply.c), so that the revert reuses
# apply.sh's own restore steps (restore_file, set_key, restore_qdisc,
# restore_route); apply.sh's modes call them:
#   apply    with CONFIRM set: confirm_arm before anything changes (a
#            failure there changes nothing), confirm_written once the
#            writes are done, confirm_settle at the end
#   revert   the program the timer runs: confirm_revert
#   confirm  a NEW connection's call after the apply: confirm_check
#
# Inputs (apply.sh's header):
#   CONFIRM  seconds until the host reverts by itself ("" = off)
#   TOKEN    this apply's name, [0-9a-f]{8,32}: the timer's unit
#            (tcptune-revert-TOKEN) and the pending revert it may cancel
#   REVERT   the program the timer runs: this file, apply.sh and a header
#            with MODE=revert (the controller builds it: a program cannot
#            read its own text)
#   CANCEL   confirm: "1" = the controller read the apply's whole answer:
#            cancel the revert; "" = it did not: revert now
#
# State: $STATE/confirm, one pending revert per host:
#   token, due (epoch seconds), how ("systemd UNIT" or "sleep PID"),
#   applying (the apply's pid until its writes are done),
#   revert (the program), snap/ (what the revert restores: the drop-in or
#   "absent", the live value of every key the new drop-in sets, each interface's (DEV)
#   qdisc lines, the default route, the route unit and its link, the
#   modules-load.d file, tcptune's own backup of the drop-in), lock/ (made
#   by whichever of the revert and the cancel comes first: mkdir is atomic,
#   so only one of them acts), done (the revert's end: "at=EPOCH" and an
#   "error=" line per step that failed), log (its output).
#
# The timer: a transient systemd timer (systemd-run --on-active) where
# systemd is PID 1 and this shell is in PID 1's network namespace (a
# namespace's host must not run its revert in the machine's own); else a
# detached `sleep N` in a session of its own (setsid), its standard streams
# on /dev/null: owned by no SSH session, it outlives the connection.
#
# Output: an "@confirm" section: status=armed (due=EPOCH how=systemd|sleep),
# status=off (nothing changed live: the revert was cancelled at once),
# status=confirmed, status=reverted (at=EPOCH), status=none (no revert of
# this TOKEN is pending) or status=failed, each failure as an error= line.

CDIR=$STATE/confirm


# Whether systemd runs this host and this shell is in its network
# namespace (readable as root only; unreadable: not ours to use).
confirm_systemd() {
	[ -z "$ROOT" ] && [ -d /run/systemd/system ] && have systemd-run ||
	    return 1
	cs_one=$(readlink /proc/1/ns/net 2>/dev/null)
	[ -n "$cs_one" ] && [ "$cs_one" = "$(readlink /proc/self/ns/net)" ]
}

# Copy file $1 to $2 (with mode and time), or mark it absent ($2.absent).
confirm_keep() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		try cp -Pp "$1" "$2"
	else
		try write_text "$2.absent" ""
	fi
}

# What the revert restores, into directory $1. ERR on failure.
confirm_snapshot() {
	try mkdir -p "$1" || return 1
	confirm_keep "$FILE" "$1/dropin" || return 1
	# The keys of the new drop-in are the ones the apply sets.
	try write_input "$1/new" && keep_live "$1" "$1/new" || return 1
	rm -f "$1/new"
	if [ -n "$ROUTE" ]; then
		confirm_keep "$UNIT" "$1/unit" || return 1
		confirm_keep "$UNIT_LINK" "$1/unit-link" || return 1
	fi
	if [ -n "$MODULES" ]; then
		confirm_keep "$ROOT/etc/modules-load.d/tcptune.conf" \
		    "$1/modules" || return 1
	fi
	cs_b=$(backup_dir)
	if [ -d "$cs_b" ]; then
		try cp -Rp "$cs_b" "$1/backup" || return 1
	else
		try write_text "$1/backup.absent" "" || return 1
	fi
}

# Start a timer of CDIR's revert, CONFIRM seconds from now: unit
# tcptune-revert-TOKEN$1 (the arm's and the settle's differ, so that one
# can start before the other stops). ERR on failure.
confirm_schedule() {
	CU=tcptune-revert-$TOKEN$1
	rm -f "$CDIR/pid"
	if confirm_systemd; then
		ERR=$(systemd-run --quiet --collect --unit="$CU" \
		    --description="tcptune: revert an unconfirmed change" \
		    --on-active="${CONFIRM}s" \
		    --timer-property=AccuracySec=1s \
		    /bin/sh "$CDIR/revert" 2>&1) || { reason systemd-run; return 1; }
		try write_text "$CDIR/how" "systemd $CU$NL"
		return
	fi
	if ! have setsid; then
		ERR="neither systemd-run (systemd as PID 1) nor setsid to run it"
		return 1
	fi
	# The sleeper records its pid, then becomes the revert.
	# shellcheck disable=SC2016 # the sleeper's own $$ and arguments
	setsid sh -c 'echo "$$" >"$1/pid" && sleep "$2" &&
	    exec env TCPTUNE_TEST_ROOT="$3" sh "$1/revert"' tcptune-revert \
	    "$CDIR" "$CONFIRM" "$ROOT" </dev/null >/dev/null 2>&1 &
	cs_n=0
	while [ ! -s "$CDIR/pid" ] && [ "$cs_n" -lt 50 ]; do
		sleep 0.1 2>/dev/null || sleep 1
		cs_n=$((cs_n + 1))
	done
	if [ ! -s "$CDIR/pid" ]; then
		ERR="the detached timer did not start"
		return 1
	fi
	try write_text "$CDIR/how" "sleep $(cat "$CDIR/pid")$NL"
}

# Before the apply changes anything: keep what the revert restores and
# start its timer. Returns 1 (an error line said why) when the host cannot
# revert by itself: the apply must not run then.
confirm_arm() {
	printf '@confirm\n'
	case $TOKEN in
	"" | *[!0-9a-f]*)
		kv error "refused revert token '$TOKEN'"
		return 1 ;;
	esac
	if [ -d "$CDIR" ] && [ ! -e "$CDIR/done" ]; then
		ca_due=$(cat "$CDIR/due" 2>/dev/null)
		kv due "$ca_due"
		kv error "a revert of an earlier unconfirmed apply is pending in $CDIR; nothing was changed"
		return 1
	fi
	# A revert that ran while no controller came back to read it.
	[ -e "$CDIR/done" ] && kv stale "$(sed -n 's/^at=//p' "$CDIR/done")"
	rm -rf "$CDIR" "$CDIR.tmp"
	if ! confirm_snapshot "$CDIR.tmp/snap" ||
	    ! try write_text "$CDIR.tmp/revert" "$REVERT" ||
	    ! try write_text "$CDIR.tmp/token" "$TOKEN$NL" ||
	    ! try write_text "$CDIR.tmp/applying" "$$$NL" ||
	    ! try write_text "$CDIR.tmp/due" \
	    "$(($(date +%s) + CONFIRM))$NL" ||
	    ! try mv "$CDIR.tmp" "$CDIR"; then
		rm -rf "$CDIR.tmp"
		kv error "cannot keep the state to revert to in $CDIR: $ERR"
		return 1
	fi
	sync
	if ! confirm_schedule; then
		rm -rf "$CDIR"
		kv error "cannot schedule the revert: $ERR"
		return 1
	fi
	kv due "$(cat "$CDIR/due")"
	kv how "$(sed 's/ .*//' "$CDIR/how")"
	return 0
}

# Stop the timer "how" says ($1, default CDIR's how).
confirm_stop() {
	cs_how=${1-$(cat "$CDIR/how" 2>/dev/null)}
	case $cs_how in
	"systemd "*)
		systemctl stop "${cs_how#systemd }.timer" >/dev/null 2>&1 ;;
	"sleep "*)
		# The sleeper's shell and its sleep: the group setsid made.
		kill -TERM -- "-${cs_how#sleep }" 2>/dev/null ||
		    kill -TERM "${cs_how#sleep }" 2>/dev/null ;;
	esac
}

# The apply's writes are done (its probe only reads): a revert due now
# need not wait for the rest.
confirm_written() {
	rm -f "$CDIR/applying"
}

# At the end of the apply (its probe too): when nothing changed live,
# nothing waits for a confirmation (the revert is stopped at once and the
# controller opens no second connection); else the timeout starts again
# from now, so that a slow apply is not reverted for its own slowness (a
# timer of the arm that fires meanwhile finds the new due and leaves it to
# this one).
confirm_settle() {
	printf '@confirm\n'
	if [ -d "$CDIR/lock" ]; then
		# The revert came first (the change cut this session's
		# answer off, say): the confirm will find it done.
		kv status armed
		return
	fi
	if [ -n "$CHANGED_ANY$QDISC$ROUTE$MODULES" ]; then
		cs_old=$(cat "$CDIR/how")
		cs_due=$(cat "$CDIR/due")
		try write_text "$CDIR/due" "$(($(date +%s) + CONFIRM))$NL"
		if confirm_schedule -s; then
			confirm_stop "$cs_old"
		else
			# The arm's timer stays, and its due.
			kv error "cannot start the timeout again after the apply: $ERR"
			try write_text "$CDIR/due" "$cs_due$NL"
			try write_text "$CDIR/how" "$cs_old$NL"
		fi
		kv due "$(cat "$CDIR/due")"
		kv status armed
		return
	fi
	if mkdir "$CDIR/lock" 2>/dev/null; then
		confirm_stop
		rm -rf "$CDIR"
		kv status off
	else
		kv status armed
	fi
}

# Put back what confirm_snapshot kept in $1 (s). Each step that fails is an
# error line; the others still run.
confirm_restore() {
	s=$1
	if [ -e "$s/dropin.absent" ]; then
		try rm -f "$FILE" || kv error "cannot remove $FILE: $ERR"
	elif ! restore_file "$s/dropin"; then
		kv error "cannot restore $FILE: $ERR"
	fi
	sync "${FILE%/*}" 2>/dev/null
	# The keys first: restore_qdisc relies on default_qdisc.
	while IFS='	' read -r k v; do
		[ -n "$k" ] && set_key "$k" "$v"
	done <"$s/live"
	for cr_q in "$s"/qdisc@*; do
		[ -s "$cr_q" ] || continue
		# shellcheck disable=SC2034 # restore_qdisc (apply.sh) reads QDEV
		QDEV=${cr_q##*/qdisc@}
		restore_qdisc "$cr_q" || kv error "$ERR"
	done
	if [ -s "$s/route" ]; then
		restore_route "$(cat "$s/route")" || kv error "$ERR"
		confirm_put "$s/unit" "$UNIT"
		confirm_put "$s/unit-link" "$UNIT_LINK"
	fi
	[ -e "$s/modules" ] || [ -e "$s/modules.absent" ] &&
	    confirm_put "$s/modules" "$ROOT/etc/modules-load.d/tcptune.conf"
	cr_b=$(backup_dir)
	try rm -rf "$cr_b" || kv error "cannot remove $cr_b: $ERR"
	if [ -d "$s/backup" ] && ! try cp -Rp "$s/backup" "$cr_b"; then
		kv error "cannot restore $cr_b: $ERR"
	fi
	sync
}

# File $2 as confirm_keep kept it in $1: put back, or removed.
confirm_put() {
	if [ -e "$1.absent" ]; then
		try rm -f "$2" || kv error "cannot remove $2: $ERR"
	elif [ -L "$1" ]; then
		try ln -sfn "$(readlink "$1")" "$2" ||
		    kv error "cannot restore the link $2: $ERR"
	elif ! restore_file "$1" "$2"; then
		kv error "cannot restore $2: $ERR"
	fi
}

# The revert, holding the lock: restore, then record the end in done.
confirm_do_revert() {
	{
		printf '@confirm\n'
		confirm_restore "$CDIR/snap"
		printf '@confirm\n'
		kv at "$(date +%s)"
	} >"$CDIR/log" 2>&1
	# The errors, then the time: "at=" is the mark of an end.
	grep '^error=' "$CDIR/log" >"$CDIR/done.tmp"
	sed -n 's/^at=/at=/p' "$CDIR/log" >>"$CDIR/done.tmp"
	mv -f "$CDIR/done.tmp" "$CDIR/done"
	sync
}

# What the timer runs. An apply still writing (a slow host) is given 10 s
# of the clock to finish its writes first, so that the revert does not
# undo half of them while the other half is still to come; its probe, and
# an answer stuck on a cut connection, are not waited for. Counted in
# seconds, not in rounds: on a slow host each round's forks take seconds
# themselves.
confirm_revert() {
	mkdir "$CDIR/lock" 2>/dev/null || return 0
	cr_pid=$(cat "$CDIR/applying" 2>/dev/null)
	cr_end=$(($(date +%s) + 10))
	while [ -n "$cr_pid" ] && kill -0 "$cr_pid" 2>/dev/null &&
	    [ "$(date +%s)" -lt "$cr_end" ]; do
		sleep 1
	done
	# Started again after the apply: the later timer reverts.
	if [ "$(date +%s)" -lt "$(cat "$CDIR/due" 2>/dev/null || echo 0)" ]
	then
		rmdir "$CDIR/lock"
		return 0
	fi
	confirm_do_revert
}

# The done file's lines as the @confirm section's.
confirm_show_done() {
	kv status reverted
	while IFS= read -r cd_l; do
		case $cd_l in
		at=*) kv at "${cd_l#at=}" ;;
		error=*) printf '%s\n' "$cd_l" ;;
		esac
	done <"$CDIR/done"
}

# A new connection's call: cancel the revert of TOKEN (CANCEL=1) or run it
# now, or say that it already ran. The live state the cancel confirms is
# read back: the drop-in's sum and the interface's qdisc.
confirm_check() {
	printf '@confirm\n'
	if [ ! -d "$CDIR" ] ||
	    [ "$(cat "$CDIR/token" 2>/dev/null)" != "$TOKEN" ]; then
		kv status none
		return
	fi
	if mkdir "$CDIR/lock" 2>/dev/null; then
		if [ "$CANCEL" = 1 ]; then
			confirm_stop
			kv dropin "$(cksum <"$FILE" 2>/dev/null || echo absent)"
			# shellcheck disable=SC2153 # DEV is a value of the header
			for cc_dev in $DEV; do
				kv qdisc "$cc_dev $(tc qdisc show dev "$cc_dev" 2>/dev/null | head -n 1)"
			done
			if try rm -rf "$CDIR"; then
				kv status confirmed
			else
				kv error "cannot remove $CDIR: $ERR"
				kv status failed
			fi
			return
		fi
		confirm_do_revert
	fi
	# The revert runs (or ran): wait for its end, at most 90 s of the
	# clock (its own wait for the apply is 10 s).
	cc_end=$(($(date +%s) + 90))
	while [ ! -e "$CDIR/done" ] && [ "$(date +%s)" -lt "$cc_end" ]; do
		sleep 1
	done
	if [ ! -e "$CDIR/done" ]; then
		kv error "the revert in $CDIR started but has not ended after 90 s"
		kv status failed
		return
	fi
	confirm_show_done
	rm -rf "$CDIR"
}
