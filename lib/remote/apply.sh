# tcptune apply: write the managed sysctl drop-in atomically, keep a backup,
# load only our file, set the live qdisc / modules / route options, read
# every key back, then re-run the probe so the controller can see which file
# wins for each key. One exec per host; also does check (read only) and
# rollback, and the two steps of an Ansible-style sysctl task on any sysctl
# file (conf-read, conf-write: see "ansible.posix.sysctl" below).
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   MODE     check | apply | rollback | rollback-check | conf-read |
#            conf-write | revert | confirm
#   FILE     the drop-in, e.g. /etc/sysctl.d/90-tcptune.conf (conf-*: the
#            sysctl file the task edits, e.g. /etc/sysctl.conf)
#   STATE    where backups live, e.g. /var/lib/tcptune
#   QDISC    live qdisc to set on each interface of DEV ("" = leave them)
#   DEV      the interfaces that carry the traffic and need it, separated
#            by blanks (the probe's route to each peer and the default
#            route's); rollback: the default route's, for a backup that
#            does not name its interface
#   TXQ      each one's number of tx queues when its root qdisc is mq, in
#            DEV's order (0 = not mq)
#   MODULES  kernel modules to load and persist, separated by blanks; each
#            a word of [A-Za-z0-9_-] (any other is refused)
#   ROUTE    route options for the default route, e.g. "initcwnd 10"
#   PROBE    the probe's program (lib/remote/probe.sh), run after a change
#            ("" = don't)
#   PERSIST  "unit": keep ROUTE across reboots with a oneshot systemd unit
#   TO       rollback target: "" (the first backup: the host before tcptune)
#            or "previous" (the host before the last apply that changed it)
#   KEY      conf-*: the key whose live value is read (`sysctl -e -n KEY`)
#   EXPECT   conf-write: the "sum" conf-read printed; FILE must still have
#            it, else nothing is done
#   SETKV    conf-write: "KEY=VALUE" for `sysctl -w` first ("" = don't)
#   WRITE    conf-write: "1" = replace FILE with INPUT
#   RELOAD   conf-write: "1" = `sysctl -p FILE` last
#   IGNORE   conf-write: "1" = -e on sysctl -w and -p (ignore unknown keys)
#   CONFIRM, TOKEN, REVERT, CANCEL  the host's own revert of an apply
#            that is not confirmed in time, and modes revert and confirm
#            (lib/remote/confirm.sh, sent before this script)
#   INPUT    apply and conf-write: the new content of FILE, byte for byte
#            (a value of the header like the others: the whole call is one
#            program on standard input, so nothing of it, and none of the
#            file, is on the command line that sudo logs)
#
# Under the tests (TCPTUNE_TEST_ROOT, see the prelude), /proc/sys becomes
# ROOT/proc/sys and /etc ROOT/etc wherever the script reaches outside FILE
# and STATE, and ROOT/bin holds stubs of modprobe, tc and ip, so a test
# never changes its own host.
#
# Output: "tcptune-apply 1", then "@SECTION" lines and "key=value" lines
# escaped as in the probe (\\ and \n), the old file as "|line" lines, then
# "@@probe" followed by the probe's own output, and "@done" when finished.
# A step that fails says so with an "error=" line in its section (@old,
# @write, @key, @undo, @module, @qdisc, @route, @state, @rollback, @backup)
# naming the file and the reason, and never with the word of success:
# "status=written", "file=restored", "file=removed", "persisted=1" and
# "status=restored" mean it was done. @undo and @rollback end with
# "status=failed" when any of their steps failed; a failed rollback leaves
# FILE and the backup as they were, for a retry.
#
# It never leaves a partial FILE: the new content goes to a temp file in the
# same directory, is synced, and renamed over FILE; every step before the
# rename is checked, and a failure removes the temp file instead.

umask 022
UNIT=$ROOT/etc/systemd/system/tcptune-route.service
UNIT_LINK=$ROOT/etc/systemd/system/multi-user.target.wants/tcptune-route.service
CHECK=
CHANGED_ANY=
TMP=

# ---- steps that can fail: each sets ERR to the reason and returns 1
# (reason, try, mk_temp, guard, unguard, flush and commit_temp are the
# prelude's)

# Helpers that run through try (shellcheck cannot see indirect calls).
# shellcheck disable=SC2317
write_text() {
	printf '%s' "$2" >"$1"
}
# shellcheck disable=SC2317
# Through cat: on a write error dash's printf says only "I/O error", cat
# says what happened ("No space left on device").
write_input() {
	printf '%s' "$INPUT" | cat >"$1"
}

# Put the saved copy $1 back over file $2 (default FILE) atomically,
# through a temp file beside it (a dot-file: sysctl reads only *.conf).
restore_file() {
	rf_to=${2:-$FILE}
	if [ -d "$1" ]; then
		ERR="Is a directory"
		return 1
	elif [ ! -e "$1" ]; then
		ERR="No such file or directory"
		return 1
	elif [ ! -f "$1" ]; then
		ERR="not a regular file"
		return 1
	fi
	mk_temp "${rf_to%/*}/.${rf_to##*/}.XXXXXX" || return 1
	guard
	if ! try cp -p "$1" "$TMP"; then
		rm -f "$TMP"
		unguard
		return 1
	fi
	# cp -p kept the saved copy's mode.
	commit_temp "$rf_to"
}

# ---- keys

# KP: the /proc/sys path of dotted key $1 (builtins only: this runs per key).
# Every '.' separates, so no part can be "..": a key never leads out.
keypath() {
	KP=$ROOT/proc/sys
	kp_ifs=$IFS
	IFS=.
	set -f
	# shellcheck disable=SC2086 # split on '.' on purpose, globbing off
	set -- $1
	set +f
	IFS=$kp_ifs
	for kp_part; do
		KP=$KP/$kp_part
	done
}

# NORM: $1 with blank runs squeezed to one space and trimmed (builtins).
normalise() {
	set -f
	# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
	set -- $1
	set +f
	NORM="$*"
}

# CUR: the value of /proc/sys file $1, normalised. One fork: dash's read
# builtin reads a byte at a time, and an integer sysctl answers a read at a
# non-zero offset with end of file.
readkey() {
	normalise "$(cat "$1" 2>/dev/null)"
	CUR=$NORM
}

# Every "key = value" of a sysctl file, as "key<TAB>value" lines.
file_keys() {
	sed -n -e 's/^[[:space:]]*-\{0,1\}\([^#;=[:space:]][^=]*[^=[:space:]]\)[[:space:]]*=[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/\1\t\2/p' "$1" 2>/dev/null
}

# Set key $1 to value $2 unless it already has it, and read it back:
# an "@key" section. With CHECK set, only read. Leaves KEY_ERR (the
# kernel's refusal), KEY_CHANGED and KEY_BEFORE for the caller.
set_key() {
	KEY_ERR='' KEY_CHANGED='' KEY_BEFORE=''
	esc "$1"
	printf '@key %s\n' "$E"
	kv want "$2"
	keypath "$1"
	kp=$KP
	if [ ! -e "$kp" ]; then
		KEY_ERR="no such key on this kernel"
		kv error "$KEY_ERR"
		return
	fi
	readkey "$kp"
	normalise "$2"
	want=$NORM
	KEY_BEFORE=$CUR
	kv before "$CUR"
	if [ "$CUR" != "$want" ] && [ -z "$CHECK" ]; then
		if { printf '%s\n' "$2" >"$kp"; } 2>/dev/null; then
			KEY_CHANGED=1
			kv changed 1
		else
			# The shell reports any failed write as an I/O error;
			# cat passes on the kernel's own reason (EINVAL...).
			err=$(printf '%s\n' "$2" | cat 2>&1 >"$kp")
			KEY_ERR=${err##*: }
			[ -n "$KEY_ERR" ] || KEY_ERR="write refused"
			kv error "$KEY_ERR"
		fi
		readkey "$kp"
	fi
	kv live "$CUR"
}

# Write back the values of the "key<TAB>value" lines $1 without reading
# them (the undo of a refused apply). Returns 1 if any write failed; each
# failure is an error line.
put_back() {
	pb=0
	while IFS='	' read -r k v; do
		[ -n "$k" ] || continue
		keypath "$k"
		if ! try write_text "$KP" "$v$NL"; then
			kv error "cannot put back $k = $v: $ERR"
			pb=1
		fi
	done <<KEYS
$1
KEYS
	return $pb
}

backup_dir() {
	printf '%s/backup/%s' "$STATE" "$(printf '%s' "$FILE" | tr / _)"
}

# File $1 as "|line" lines, and an error line if it cannot all be read.
# A last line without a newline gets one here (no_newline says so), or the
# next section's "@" line would be glued to it.
show_file() {
	sf_nl=
	[ -z "$(tail -c 1 "$1" 2>/dev/null)" ] || { kv no_newline 1; sf_nl=1; }
	if { ERR=$(sed -e 's/^/|/' "$1" 2>&1 >&3); } 3>&1; then
		[ -z "$sf_nl" ] || echo
		return 0
	fi
	reason sed
	kv error "cannot read $1: $ERR"
}

old_file() {
	printf '@old\n'
	if [ -f "$FILE" ]; then
		kv exists 1
		show_file "$FILE"
	else
		kv exists 0
	fi
}

# ---- the live qdisc, modules and route

# The kinds of DEV's qdiscs as tc lists them on stdin: the root's, then one
# line "PARENT KIND" per leaf of the root (an mq root's per-queue qdiscs),
# PARENT as its minor only. ingress/clsact (parent ffff:) shape nothing we
# send and are left out.
qdisc_tree() {
	awk '$4 == "root" && !r { r = 1; print $2; maj = $3; sub(/:.*/, "", maj)
		if (maj == "0") maj = ""; next }
	r && $4 == "parent" && index($5, maj ":") == 1 {
		n = $5; sub(/^[^:]*:/, "", n); print n, $2 }'
}

# Replace the mq root of QDEV with one tcptune can address: the kernel's
# own has handle 0:, whose per-queue leaves tc cannot name ("parent :1"
# finds no qdisc). The new mq gets fresh leaves 1:1..1:N of the default
# qdisc. LEAVES: the leaves' minors. Returns 1 (ERR set) when tc failed.
mq_root() {
	if ! ERR=$(tc qdisc replace dev "$QDEV" root handle 1: mq 2>&1); then
		return 1
	fi
	LEAVES=$(tc qdisc show dev "$QDEV" 2>/dev/null | qdisc_tree |
	    sed -n 's/^\([0-9a-f][0-9a-f]*\) .*/\1/p')
	if [ -z "$LEAVES" ]; then
		ERR="mq on $QDEV shows no per-queue qdiscs"
		return 1
	fi
}

# Give QDEV the root the kernel attaches by itself, as at boot: handle 0:,
# from default_qdisc (mq with a default_qdisc leaf per queue on a
# multiqueue NIC). Deleting the root makes the kernel attach it again, but
# a root the kernel attached cannot be deleted ("Cannot delete qdisc with
# handle of zero"): one of KIND with handle 1: replaces it first. Returns 1
# (ERR set) when tc failed.
default_root() {
	tc qdisc del dev "$QDEV" root >/dev/null 2>&1 && return 0
	ERR=$(tc qdisc replace dev "$QDEV" root handle 1: "$1" 2>&1) &&
	    ERR=$(tc qdisc del dev "$QDEV" root 2>&1)
}

# The live root qdisc of QDEV for its @qdisc section (the probe that
# follows an apply reads the whole tree, an mq root's leaves too).
show_qdisc() {
	kv live "$(tc qdisc show dev "$QDEV" 2>/dev/null | head -n 1)"
}

# QDISC on each interface of DEV, each in a @qdisc section of its own;
# errors name the interface. Returns 1 when tc failed on one.
set_qdisc() {
	[ -n "$QDISC" ] || return 0
	sq_rc=0
	sq_txq=$TXQ
	# shellcheck disable=SC2153 # DEV is a value of the header
	for QDEV in $DEV; do
		sq_n=${sq_txq%%[[:space:]]*}
		sq_txq=${sq_txq#"$sq_n"}
		sq_txq=${sq_txq#"${sq_txq%%[![:space:]]*}"}
		set_qdisc_on "$sq_n" || sq_rc=1
	done
	return $sq_rc
}

# QDISC on QDEV, whose root is mq with $1 tx queues when $1 > 1.
set_qdisc_on() {
	printf '@qdisc\n'
	kv dev "$QDEV"
	if ! have tc; then
		kv error "$QDEV: tc not installed"
		return 1
	fi
	if ! backup_qdisc_of; then
		kv error "$QDEV: cannot save its qdiscs in $(backup_dir): $ERR"
		return 1
	fi
	readkey "$ROOT/proc/sys/net/core/default_qdisc"
	if [ -n "$1" ] && [ "$1" -gt 1 ] 2>/dev/null && [ "$CUR" = "$QDISC" ]
	then
		# Multiqueue NIC whose default_qdisc is QDISC (set above): the
		# kernel's own mq with QDISC on every queue, the very tree a
		# reboot gives (handles and parents too).
		if ! default_root mq; then
			kv error "$QDEV: $ERR"
			return 1
		fi
	elif [ -n "$1" ] && [ "$1" -gt 1 ] 2>/dev/null; then
		# Multiqueue NIC: keep mq at the root, put the qdisc on each leaf.
		if ! mq_root; then
			kv error "$QDEV: $ERR"
			return 1
		fi
		for q in $LEAVES; do
			if ! err=$(tc qdisc replace dev "$QDEV" parent "1:$q" "$QDISC" 2>&1); then
				kv error "$QDEV: $err"
				return 1
			fi
		done
	elif ! err=$(tc qdisc replace dev "$QDEV" root "$QDISC" 2>&1); then
		kv error "$QDEV: $err"
		return 1
	fi
	show_qdisc
}

# An interface the first backup does not have (a peer routed out of it
# since, a default route added): its qdiscs as they are before tcptune
# first changes them, beside the others, so that a rollback gives them
# back too. Returns 1 with ERR set.
backup_qdisc_of() {
	qb=$(backup_dir)
	[ -d "$qb" ] && [ ! -e "$qb/qdisc@$QDEV" ] || return 0
	# A backup of a tcptune before the per-interface ones names its one.
	[ "$(cat "$qb/qdisc-dev" 2>/dev/null)" != "$QDEV" ] || return 0
	tb=$(tc qdisc show dev "$QDEV" 2>/dev/null)
	try write_text "$qb/.qdisc@$QDEV.tmp" "$tb${tb:+$NL}" &&
	    try mv "$qb/.qdisc@$QDEV.tmp" "$qb/qdisc@$QDEV"
}

# Put back the live qdiscs recorded in $1 (tc's lines for QDEV). A root
# the kernel attached by itself (handle 0:) comes back as the kernel's
# default again, as at boot, from the default_qdisc just restored (also
# when a reboot since has made the live root the kernel's too). Otherwise,
# or when that default is not what
# was there, the recorded kinds are set by name: the root's, or an mq
# root's leaves each on its own queue. Returns 1 with ERR set.
restore_qdisc() {
	want=$(qdisc_tree <"$1")
	kind=$(printf '%s\n' "$want" | head -n 1)
	handle=$(awk '$4 == "root" { print $3; exit }' "$1")
	case $kind in
	"" | noqueue) return 0 ;;
	esac
	if [ -z "$QDEV" ]; then
		ERR="cannot restore the qdisc $kind: the interface is not known (no facts, and the backup does not name it)"
		return 1
	fi
	printf '@qdisc\n'
	kv dev "$QDEV"
	if [ "$handle" = 0: ]; then
		default_root "$kind" >/dev/null 2>&1
		now=$(tc qdisc show dev "$QDEV" 2>/dev/null | qdisc_tree)
		# A backup of tcptune 0.x kept the root's line only.
		[ "$(printf '%s\n' "$want" | wc -l)" -gt 1 ] ||
		    now=$(printf '%s\n' "$now" | head -n 1)
		if [ "$now" = "$want" ]; then
			show_qdisc
			return 0
		fi
	fi
	if [ "$kind" != mq ]; then
		if ! err=$(tc qdisc replace dev "$QDEV" root "$kind" 2>&1); then
			ERR="cannot restore the qdisc $kind on $QDEV: $err"
			kv error "$QDEV: $err"
			return 1
		fi
	elif ! mq_root; then
		kv error "$QDEV: $ERR"
		ERR="cannot restore mq on $QDEV: $ERR"
		return 1
	else
		errs=$(printf '%s\n' "$want" | sed 1d | while read -r q k; do
			err=$(tc qdisc replace dev "$QDEV" parent "1:$q" "$k" 2>&1) ||
			    printf '%s; ' "parent 1:$q $k: $err"
		done)
		if [ -n "$errs" ]; then
			ERR="cannot restore the mq leaves on $QDEV: ${errs%; }"
			kv error "$ERR"
			return 1
		fi
	fi
	show_qdisc
}

# Load each module of MODULES and list it in modules-load.d so that the boot
# loads it too. The list is split on blanks, never globbed, and a name must
# be a word of [A-Za-z0-9_-]: anything else is refused, not run.
load_modules() {
	[ -n "$MODULES" ] || return 0
	conf=$ROOT/etc/modules-load.d/tcptune.conf
	set -f
	# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
	set -- $MODULES
	set +f
	for m; do
		esc "$m"
		printf '@module %s\n' "$E"
		case $m in
		*[!A-Za-z0-9_-]*)
			kv error "refused module name '$m' (only letters, digits, '_' and '-')"
			continue ;;
		esac
		if err=$(modprobe -- "$m" 2>&1); then
			kv loaded 1
		else
			kv error "$err"
		fi
		grep -qx -e "$m" "$conf" 2>/dev/null && continue
		if ! keep_modules_conf; then
			kv error "cannot record $conf before changing it: $ERR"
		elif persist_module "$m"; then
			kv persisted 1
		else
			kv error "cannot persist $m in $conf: $ERR"
		fi
	done
}

# Before tcptune first adds to modules-load.d, what the file was (a copy,
# or that there was none), beside the drop-in's backup, so that a rollback
# leaves no module loading at boot that the host did not load before. No
# backup, no rollback: nothing to record.
keep_modules_conf() {
	kb=$(backup_dir)
	[ -d "$kb" ] || return 0
	[ -e "$kb/modules-load.orig" ] || [ -e "$kb/modules-load.absent" ] &&
	    return 0
	if [ -f "$conf" ]; then
		try cp -p "$conf" "$kb/modules-load.orig"
	else
		try write_text "$kb/modules-load.absent" ""
	fi
}

# Rollback: modules-load.d as keep_modules_conf found it. ERR on failure.
restore_modules_conf() {
	mconf=$ROOT/etc/modules-load.d/tcptune.conf
	if [ -e "$b/modules-load.absent" ]; then
		try rm -f "$mconf" && return 0
		ERR="cannot remove $mconf: $ERR"
		return 1
	fi
	[ -e "$b/modules-load.orig" ] || return 0
	restore_file "$b/modules-load.orig" "$mconf" && return 0
	ERR="cannot restore $mconf from $b/modules-load.orig: $ERR"
	return 1
}

# conf with the line $1 added, through a temp file, mode 0644 like the
# system's own files in modules-load.d.
persist_module() {
	try mkdir -p "${conf%/*}" || return 1
	mk_temp "$conf.XXXXXX" || return 1
	guard
	if ! try add_line "$conf" "$TMP" "$1"; then
		rm -f "$TMP"
		unguard
		return 1
	fi
	commit_temp "$conf" 0644
}

# File $1 (if there is one) and the line $3, into file $2. Runs through try
# (shellcheck cannot see indirect calls).
# shellcheck disable=SC2317
add_line() {
	{
		if [ -e "$1" ]; then
			cat "$1" || return 1
			[ -z "$(tail -c 1 "$1")" ] || echo
		fi
		printf '%s\n' "$3"
	} >"$2"
}

set_route() {
	[ -n "$ROUTE" ] || return 0
	printf '@route\n'
	r=$(ip route show default 2>/dev/null | head -n 1)
	if [ -z "$r" ]; then
		kv error "no default route"
		return
	fi
	# Drop options we are about to set from the current route line.
	base=$(printf '%s\n' "$r" | sed -e 's/ initcwnd [0-9]*//' \
	    -e 's/ initrwnd [0-9]*//')
	set -f
	# shellcheck disable=SC2086 # the words of a route line, globbing off
	err=$(ip route change $base $ROUTE 2>&1) || kv error "$err"
	set +f
	kv live "$(ip route show default 2>/dev/null | head -n 1)"
	[ "$PERSIST" != unit ] || persist_route
}

# Put the default route line $1 back as it was (its options with it).
# Returns 1 with ERR set.
restore_route() {
	set -f
	# shellcheck disable=SC2086 # the words of a route line
	rr_err=$(ip route change $1 2>&1)
	rr_rc=$?
	set +f
	[ "$rr_rc" -eq 0 ] && return 0
	ERR="cannot restore the default route $1: ${rr_err##*: }"
	return 1
}

# A oneshot unit that puts ROUTE back on the default route at boot, once
# the network is up (the route a boot brings has none of our options); it
# is enabled by its wants link, so no systemctl is needed. "$$" is how a
# unit file writes a literal "$".
persist_route() {
	unit=$(printf '%s\n' '[Unit]' \
	    "Description=tcptune: $ROUTE on the default route" \
	    'Wants=network-online.target' 'After=network-online.target' '' \
	    '[Service]' 'Type=oneshot' \
	    "ExecStart=/bin/sh -c 'exec ip route change \$\$(ip route show default | head -n 1) $ROUTE'" \
	    '' '[Install]' 'WantedBy=multi-user.target')
	if [ "$(cat "$UNIT" 2>/dev/null)" != "$unit" ]; then
		if ! write_unit "$unit"; then
			kv error "cannot write $UNIT: $ERR"
			return
		fi
		CHANGED_ANY=1
		kv persisted "$UNIT"
	fi
	[ -L "$UNIT_LINK" ] && return
	if ! try mkdir -p "${UNIT_LINK%/*}" ||
	    ! try ln -sf ../tcptune-route.service "$UNIT_LINK"; then
		kv error "cannot enable $UNIT: $ERR"
	fi
}

write_unit() {
	try mkdir -p "${UNIT%/*}" || return 1
	mk_temp "$UNIT.XXXXXX" || return 1
	guard
	if ! try write_text "$TMP" "$1$NL"; then
		rm -f "$TMP"
		unguard
		return 1
	fi
	commit_temp "$UNIT" 0644
}

# ---- backups

# Save what was there before tcptune first touched FILE: the file (or the
# fact that there was none) and the live value of every key the new file $1
# sets. Later applies keep this first backup, so rollback always returns to
# the host's own configuration. It is built in B.tmp and renamed whole: a
# failure leaves no backup (ERR says why), never half of one.
save_backup() {
	b=$(backup_dir)
	[ -d "$b" ] && return 0
	# Left by a run cut short: start again.
	rm -rf "$b.tmp"
	if take_backup "$1" && try mv "$b.tmp" "$b"; then
		kv backup "$b"
		return 0
	fi
	rm -rf "$b.tmp"
	return 1
}

# Into directory $1, the live state an apply of sysctl file $2 changes:
# the value of each of its keys (live), DEV's qdisc lines when QDISC is set
# (qdisc, qdisc-dev), the default route when ROUTE is (route). Shared by
# the first backup and the confirm's snapshot (confirm.sh). ERR on failure.
keep_live() {
	tb=$(file_keys "$2" | while IFS='	' read -r k v; do
		keypath "$k"
		[ -e "$KP" ] || continue
		readkey "$KP"
		printf '%s\t%s\n' "$k" "$CUR"
	done)
	try write_text "$1/live" "$tb${tb:+$NL}" || return 1
	if [ -n "$QDISC" ]; then
		# Every line: an mq root's leaves are what it shapes with. tc's
		# lines do not name the interface, and a rollback may run
		# without facts: the file's name does (qdisc@eth1).
		for tb_dev in $DEV; do
			tb=$(tc qdisc show dev "$tb_dev" 2>/dev/null)
			try write_text "$1/qdisc@$tb_dev" "$tb${tb:+$NL}" ||
			    return 1
		done
	fi
	if [ -n "$ROUTE" ]; then
		tb=$(ip route show default 2>/dev/null | head -n 1)
		try write_text "$1/route" "$tb${tb:+$NL}" || return 1
	fi
}

take_backup() {
	try mkdir -p "$b.tmp" || return 1
	if [ -f "$FILE" ]; then
		try cp -p "$FILE" "$b.tmp/orig" || return 1
	else
		try write_text "$b.tmp/absent" "" || return 1
	fi
	keep_live "$b.tmp" "$1" || return 1
	if [ -n "$ROUTE" ] && [ ! -e "$UNIT" ]; then
		try write_text "$b.tmp/no-unit" "" || return 1
	fi
	# A plain sync always succeeds; the files are checked as written.
	sync
}

# What this apply replaced, for a rollback to "previous" (the gate of
# iperf3_verify): the file (or that there was none) and the values it
# changed. A run that changed nothing keeps the last snapshot.
save_previous() {
	if [ -n "$written" ]; then
		if [ -n "$had_old" ]; then
			try rm -f "$b/previous.absent" &&
			    try mv -f "$b/previous.tmp" "$b/previous" || return 1
		else
			try rm -f "$b/previous" "$b/previous.tmp" &&
			    try write_text "$b/previous.absent" "" || return 1
		fi
	fi
	try write_text "$b/previous.live" "$undo"
}

# The probe after a change (PROBE reads only the sysctls and sysctl.d files
# when no qdisc, module or route was set: apply_command decides).
reprobe() {
	[ -n "$PROBE" ] || return 0
	# Nothing written, no key changed: the facts the controller has are
	# still true, and a rerun stays one cheap round trip.
	[ -n "$CHANGED_ANY$QDISC$MODULES$ROUTE" ] || [ "$MODE" = rollback ] ||
	    return 0
	printf '@@probe\n'
	sh -c "$PROBE" tcptune-probe </dev/null
}

# ---- apply

# An error line for the write, after removing the temp file.
write_failed() {
	[ -z "$TMP" ] || rm -f "$TMP"
	unguard
	kv error "$1"
}

do_apply() {
	dir=${FILE%/*}
	b=$(backup_dir)
	if ! try mkdir -p "$dir"; then
		printf '@write\n'
		kv error "cannot create $dir: $ERR"
		return
	fi
	if ! try mkdir -p "$STATE/backup"; then
		printf '@write\n'
		kv error "cannot create $STATE/backup: $ERR"
		return
	fi
	if ! mk_temp "$dir/.${FILE##*/}.XXXXXX"; then
		printf '@write\n'
		kv error "cannot create a temp file in $dir: $ERR"
		return
	fi
	guard
	if ! try write_input "$TMP"; then
		printf '@write\n'
		write_failed "cannot write a temp file in $dir: $ERR"
		return
	fi
	# Also the first write since the script started: a connection cut
	# meanwhile ends it here (SIGPIPE), before anything is renamed.
	printf '@write\n'
	had_old=
	written=
	undo=
	[ -f "$FILE" ] && had_old=1
	# Same keys and values: leave the file alone even if its comments
	# differ (they quote the RTT measured on the day it was written), so
	# a rerun changes nothing.
	if [ -z "$had_old" ] && [ -z "$(file_keys "$TMP")" ]; then
		# Nothing for the file (a play with only a route task, say):
		# no empty drop-in, but a backup of what the rest changes.
		rm -f "$TMP"
		unguard
		kv status none
		if [ -n "$QDISC$ROUTE" ] && ! save_backup /dev/null; then
			kv error "cannot save a backup in $b: $ERR"
			return
		fi
	elif [ -n "$had_old" ] && { cmp -s "$TMP" "$FILE" ||
	    [ "$(file_keys "$TMP")" = "$(file_keys "$FILE")" ]; }; then
		rm -f "$TMP"
		unguard
		kv status unchanged
	else
		if ! save_backup "$TMP"; then
			write_failed "cannot save a backup in $b: $ERR"
			return
		fi
		# The file this apply replaces, for the undo below and a
		# later rollback to "previous"; kept as previous.tmp until
		# the apply is through, so that a failed one leaves the last
		# snapshot whole.
		if [ -n "$had_old" ] && ! try cp -p "$FILE" "$b/previous.tmp"
		then
			write_failed "cannot save a backup in $b: $ERR"
			return
		fi
		if ! commit_temp "$FILE" 0644; then
			write_failed "cannot replace $FILE: $ERR"
			return
		fi
		# The rename is done: a failed flush of the directory cannot be
		# undone, and the next sync writes it anyway.
		sync "$dir" 2>/dev/null
		kv status written
		written=1
		CHANGED_ANY=1
	fi
	# Load only our file, key by key, reading each back. The loop runs in
	# this shell (not a pipeline) so that a refusal can undo the rest.
	refused=
	keys=$(file_keys "$FILE")
	while IFS='	' read -r k v; do
		[ -n "$k" ] || continue
		set_key "${k#-}" "$v"
		[ -n "$KEY_ERR" ] && refused=1
		[ -n "$KEY_CHANGED" ] && undo="$undo${k#-}	$KEY_BEFORE$NL"
		[ -n "$KEY_CHANGED" ] && CHANGED_ANY=1
	done <<KEYS
$keys
KEYS
	if [ -n "$refused" ]; then
		undo_apply
		return
	fi
	load_modules
	set_qdisc
	set_route
	if [ -n "$CHANGED_ANY" ] && ! save_previous; then
		printf '@state\n'
		kv error "cannot record the state before this apply in $b: $ERR"
		# A half snapshot would roll back to the wrong state.
		rm -f "$b/previous" "$b/previous.absent" "$b/previous.live" \
		    "$b/previous.tmp"
	fi
}

# The kernel refused a value: leave the host as it was. Put the previous
# file back (or remove ours) and the values we changed; "status=failed"
# with an error line for each step that could not be undone.
undo_apply() {
	printf '@undo\n'
	ua=undone
	if [ -n "$written" ]; then
		if [ -n "$had_old" ]; then
			if restore_file "$b/previous.tmp"; then
				kv file restored
			else
				kv error "cannot put back the previous $FILE: $ERR"
				ua=failed
			fi
		elif try rm -f "$FILE"; then
			kv file removed
		else
			kv error "cannot remove $FILE: $ERR"
			ua=failed
		fi
		sync "$dir" 2>/dev/null
	fi
	rm -f "$b/previous.tmp"
	put_back "$undo" || ua=failed
	kv status $ua
}

# ---- rollback

# An error line and "status=failed" in the @rollback section.
rollback_failed() {
	kv error "$1"
	kv status failed
}

do_rollback_previous() {
	b=$(backup_dir)
	printf '@rollback\n'
	if [ ! -e "$b/previous.live" ]; then
		if [ -e "$b/previous" ] || [ -e "$b/previous.absent" ]; then
			rollback_failed "cannot restore the live values from $b/previous.live: No such file or directory"
		else
			kv status nothing
		fi
		return
	fi
	if [ -e "$b/previous" ] || [ -L "$b/previous" ]; then
		if ! restore_file "$b/previous"; then
			rollback_failed "cannot restore $FILE from $b/previous: $ERR"
			return
		fi
		kv file restored
	elif [ -e "$b/previous.absent" ]; then
		if ! try rm -f "$FILE"; then
			rollback_failed "cannot remove $FILE: $ERR"
			return
		fi
		kv file removed
	fi
	sync "${FILE%/*}" 2>/dev/null
	while IFS='	' read -r k v; do
		[ -n "$k" ] && set_key "$k" "$v"
	done <"$b/previous.live"
	printf '@rollback\n'
	if ! try rm -f "$b/previous" "$b/previous.absent" "$b/previous.live"
	then
		rollback_failed "cannot remove the snapshot in $b: $ERR"
		return
	fi
	kv status restored
}

do_rollback() {
	[ "$TO" = previous ] && { do_rollback_previous; return; }
	b=$(backup_dir)
	printf '@rollback\n'
	if [ ! -d "$b" ]; then
		kv status nothing
		return
	fi
	if [ ! -f "$b/live" ]; then
		rollback_failed "cannot restore the live values from $b/live: No such file or directory"
		return
	fi
	# The backup says whether there was a file: without "absent", the
	# file must be restored, and a missing copy is a failure.
	if [ -e "$b/absent" ] && [ ! -e "$b/orig" ]; then
		if ! try rm -f "$FILE"; then
			rollback_failed "cannot remove $FILE: $ERR"
			return
		fi
		kv file removed
	elif ! restore_file "$b/orig"; then
		rollback_failed "cannot restore $FILE from $b/orig: $ERR"
		return
	else
		kv file restored
	fi
	sync "${FILE%/*}" 2>/dev/null
	while IFS='	' read -r k v; do
		[ -n "$k" ] && set_key "$k" "$v"
	done <"$b/live"
	# Leftovers of applies cut short (dot-files sysctl never reads).
	rm -f "${FILE%/*}/.${FILE##*/}."??????
	rb=
	# One interface's backup from a tcptune before the per-interface
	# ones, DEV (the default route's) where it does not name it.
	if [ -s "$b/qdisc" ]; then
		QDEV=$(cat "$b/qdisc-dev" 2>/dev/null)
		[ -n "$QDEV" ] || QDEV=${DEV%%[[:space:]]*}
		restore_qdisc "$b/qdisc" || rb=$ERR
	fi
	for rq in "$b"/qdisc@*; do
		[ -s "$rq" ] || continue
		QDEV=${rq##*/qdisc@}
		restore_qdisc "$rq" || rb="${rb:+$rb; }$ERR"
	done
	restore_modules_conf || rb="${rb:+$rb; }$ERR"
	if [ -s "$b/route" ]; then
		restore_route "$(cat "$b/route")" || rb="${rb:+$rb; }$ERR"
		if [ -e "$b/no-unit" ] && ! try rm -f "$UNIT" "$UNIT_LINK"; then
			rb="${rb:+$rb; }cannot remove $UNIT: $ERR"
		fi
	fi
	printf '@rollback\n'
	# The backup stays for a retry until everything is back.
	if [ -n "$rb" ]; then
		rollback_failed "$rb"
	elif ! try rm -rf "$b"; then
		rollback_failed "cannot remove the backup $b: $ERR"
	else
		kv status restored
	fi
}

# ---- ansible.posix.sysctl
#
# A task of Ansible's sysctl module edits one line of a file that holds
# other people's lines (/etc/sysctl.conf by default). The edit itself is
# computed on the controller (lib/tune/sysctlconf.c, unit-tested against
# Ansible's own code) from the file as conf-read showed it; conf-write gets
# the result and the file's sum as it was read, so a file changed in
# between is refused, never overwritten. conf-write does what that module
# does, in its order: sysctl -w, write the file, sysctl -p FILE; then it
# reads the live value back.

# The file's checksum and size (POSIX cksum), or "absent".
file_sum() {
	if [ -f "$FILE" ]; then
		cksum <"$FILE" 2>/dev/null || echo unreadable
	else
		echo absent
	fi
}

# "@live": what `sysctl -e -n KEY` printed and its status, as the module
# reads a live value.
show_live() {
	printf '@live\n'
	sl_out=$(sysctl -e -n "$KEY" 2>/dev/null)
	kv rc $?
	kv value "$sl_out"
}

# Whether sysctl's messages $1 hold a refusal it exits 0 on (the module's
# own test: a whole line 'sysctl: setting key "K": Invalid argument' or
# '...: Read-only file system', K without '"').
refused_quietly() {
	while IFS= read -r rq_l; do
		case $rq_l in
		'sysctl: setting key "'*'": Invalid argument' | \
		'sysctl: setting key "'*'": Read-only file system')
			rq_k=${rq_l#'sysctl: setting key "'}
			rq_k=${rq_k%'": '*}
			case $rq_k in
			'' | *'"'*) ;;
			*) return 0 ;;
			esac ;;
		esac
	done <<EOF
$1
EOF
	return 1
}

# Section $1: run sysctl with the rest as arguments; its status and
# messages, and "failed=1" when the module would fail on them.
run_sysctl() {
	printf '@%s\n' "$1"
	shift
	rs_out=$(sysctl "$@" 2>&1)
	rs_rc=$?
	CHANGED_ANY=1
	kv rc "$rs_rc"
	kv out "$rs_out"
	[ "$rs_rc" -eq 0 ] && ! refused_quietly "$rs_out" && return 0
	kv failed 1
	return 1
}

# Replace FILE with INPUT: a temp file beside it that keeps FILE's
# mode and owner (as Ansible's atomic_move; a new file gets 0644, Ansible's
# 0666 under umask 022), the first backup, then the rename. The directory
# must exist, as the module's mkstemp there needs it.
conf_write_file() {
	printf '@write\n'
	dir=${FILE%/*}
	b=$(backup_dir)
	if ! try mkdir -p "$STATE/backup"; then
		kv error "cannot create $STATE/backup: $ERR"
		return 1
	fi
	if ! mk_temp "${dir:-}/.${FILE##*/}.XXXXXX"; then
		kv error "cannot create a temp file in ${dir:-/}: $ERR"
		return 1
	fi
	guard
	if { [ -f "$FILE" ] && ! try cp -p "$FILE" "$TMP"; } ||
	    ! try write_input "$TMP"; then
		write_failed "cannot write a temp file in ${dir:-/}: $ERR"
		return 1
	fi
	if ! save_backup "$TMP"; then
		write_failed "cannot save a backup in $b: $ERR"
		return 1
	fi
	cw_mode=
	[ -f "$FILE" ] || cw_mode=0644
	if ! commit_temp "$FILE" $cw_mode; then
		write_failed "cannot replace $FILE: $ERR"
		return 1
	fi
	sync "${dir:-/}" 2>/dev/null
	kv status written
	CHANGED_ANY=1
}

do_conf_write() {
	printf '@conf\n'
	cw_sum=$(file_sum)
	if [ "$cw_sum" != "$EXPECT" ]; then
		kv error "$FILE changed since it was read (cksum $EXPECT, now $cw_sum); nothing was done"
		return
	fi
	cw_e=
	[ "$IGNORE" = 1 ] && cw_e=-e
	if [ -n "$SETKV" ]; then
		# shellcheck disable=SC2086 # cw_e is one option or nothing
		run_sysctl set $cw_e -w "$SETKV" || return
	fi
	if [ "$WRITE" = 1 ]; then
		conf_write_file || return
	fi
	if [ "$RELOAD" = 1 ]; then
		# shellcheck disable=SC2086 # cw_e is one option or nothing
		run_sysctl reload $cw_e -p "$FILE"
	fi
}

printf 'tcptune-apply 1\n'
case $MODE in
conf-read)
	old_file
	printf '@conf\n'
	kv sum "$(file_sum)"
	show_live
	;;
conf-write)
	do_conf_write
	show_live
	reprobe
	;;
check)
	# Read only: no temp file, no write. The new content is INPUT, as
	# for apply (stdin is the program itself): each key's live value is
	# shown beside it.
	CHECK=1
	old_file
	printf '%s\n' "$INPUT" | file_keys /dev/stdin | while IFS='	' read -r k v; do
		set_key "${k#-}" "$v"
	done
	if [ -n "$QDISC" ]; then
		for QDEV in $DEV; do
			printf '@qdisc\n'
			kv dev "$QDEV"
			show_qdisc
		done
	fi
	if [ -n "$ROUTE" ]; then
		printf '@route\n'
		kv live "$(ip route show default 2>/dev/null | head -n 1)"
	fi
	;;
rollback-check)
	old_file
	b=$(backup_dir)
	orig=$b/orig live=$b/live
	[ "$TO" = previous ] && orig=$b/previous live=$b/previous.live
	printf '@backup\n'
	if [ ! -e "$live" ]; then
		kv exists 0
	else
		kv exists 1
		if [ -f "$orig" ]; then
			kv orig 1
			show_file "$orig"
		else
			kv orig 0
		fi
		CHECK=1
		while IFS='	' read -r k v; do
			[ -n "$k" ] && set_key "$k" "$v"
		done <"$live"
	fi
	;;
apply)
	old_file
	# With CONFIRM, the host's own revert is armed before any change
	# (lib/remote/confirm.sh); if it cannot be, nothing is changed.
	if [ -z "$CONFIRM" ] || confirm_arm; then
		do_apply
		[ -z "$CONFIRM" ] || confirm_written
		reprobe
		[ -z "$CONFIRM" ] || confirm_settle
	fi
	;;
revert)
	confirm_revert
	;;
confirm)
	confirm_check
	;;
rollback)
	old_file
	do_rollback
	reprobe
	;;
*)
	printf '@error\n'
	kv error "unknown mode $MODE"
	;;
esac
printf '@done\n'
exit 0
