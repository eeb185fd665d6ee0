# tcptune apply: write the managed sysctl drop-in atomically, keep a backup,
# load only our file, set the live qdisc / modules / route options, read
# every key back, then re-run the probe so the controller can see which file
# wins for each key. One exec per host; also does check (read only) and
# rollback.
#
# Run as: sh -c "$THIS" tcptune-apply MODE FILE STATE QDISC DEV TXQ MODULES
#            ROUTE PROBE PERSIST
#   MODE     check | apply | rollback
#   FILE     the drop-in, e.g. /etc/sysctl.d/90-tcptune.conf
#   STATE    where backups live, e.g. /var/lib/tcptune
#   QDISC    live root qdisc to set on DEV ("" = leave it)
#   DEV      the default-route interface
#   TXQ      number of tx queues when the root qdisc is mq ("" or 0 = not mq)
#   MODULES  kernel modules to load and persist, space separated
#   ROUTE    route options for the default route, e.g. "initcwnd 10"
#   PROBE    the probe script text, run after a change ("" = don't)
#   PERSIST  "unit": keep ROUTE across reboots with a oneshot systemd unit
#   TO       rollback target: "" (the first backup: the host before tcptune)
#            or "previous" (the host before the last apply that changed it)
# Standard input (apply mode): the new content of FILE.
#
# Output: "tcptune-apply 1", then "@SECTION" lines and "key=value" lines
# escaped as in the probe (\\ and \n), the old file as "|line" lines, then
# "@@probe" followed by the probe's own output, and "@done" when finished.
# It never leaves a partial FILE: the new content goes to a temp file in the
# same directory, is synced, and renamed over FILE.

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH
LC_ALL=C
export PATH LC_ALL
umask 022
NL='
'
MODE=$1 FILE=$2 STATE=$3 QDISC=$4 DEV=$5 TXQ=$6 MODULES=$7 ROUTE=$8
PROBE=$9
PERSIST=${10:-}
TO=${11:-}
UNIT=/etc/systemd/system/tcptune-route.service
UNIT_LINK=/etc/systemd/system/multi-user.target.wants/tcptune-route.service
CHECK=
CHANGED_ANY=

esc() {
	E=$1
	case $E in
	*\\*|*"$NL"*) ;;
	*) return ;;
	esac
	E=$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' | sed -e ':a' -e 'N' \
	    -e '$!ba' -e 's/\n/\\n/g')
}
kv() {
	esc "$2"
	printf '%s=%s\n' "$1" "$E"
}

# KP: the /proc/sys path of dotted key $1 (builtins only: this runs per key).
keypath() {
	KP=/proc/sys
	kp_ifs=$IFS
	IFS=.
	set -f
	# shellcheck disable=SC2086
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
	# shellcheck disable=SC2086
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
	keypath "$1"
	kp=$KP
	KEY_ERR= KEY_CHANGED= KEY_BEFORE=
	printf '@key %s\n' "$1"
	kv want "$2"
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

backup_dir() {
	printf '%s/backup/%s' "$STATE" "$(printf '%s' "$FILE" | tr / _)"
}

old_file() {
	printf '@old\n'
	if [ -f "$FILE" ]; then
		kv exists 1
		[ -z "$(tail -c 1 "$FILE")" ] || kv no_newline 1
		sed -e 's/^/|/' "$FILE"
	else
		kv exists 0
	fi
}

set_qdisc() {
	[ -n "$QDISC" ] || return 0
	printf '@qdisc\n'
	kv dev "$DEV"
	if ! command -v tc >/dev/null 2>&1; then
		kv error "tc not installed"
		return
	fi
	if [ -n "$TXQ" ] && [ "$TXQ" -gt 1 ] 2>/dev/null; then
		# Multiqueue NIC: keep mq at the root, put the qdisc on each leaf.
		q=1
		while [ "$q" -le "$TXQ" ]; do
			if ! err=$(tc qdisc replace dev "$DEV" parent "1:$(printf '%x' "$q")" "$QDISC" 2>&1); then
				kv error "$err"
				return
			fi
			q=$((q + 1))
		done
	elif ! err=$(tc qdisc replace dev "$DEV" root "$QDISC" 2>&1); then
		kv error "$err"
		return
	fi
	kv live "$(tc qdisc show dev "$DEV" 2>/dev/null | head -n 1)"
}

load_modules() {
	[ -n "$MODULES" ] || return 0
	conf=/etc/modules-load.d/tcptune.conf
	for m in $MODULES; do
		printf '@module %s\n' "$m"
		if err=$(modprobe "$m" 2>&1); then
			kv loaded 1
		else
			kv error "$err"
		fi
		if ! grep -qx "$m" "$conf" 2>/dev/null; then
			mkdir -p /etc/modules-load.d
			tmp=$(mktemp "$conf.XXXXXX") &&
			    { cat "$conf" 2>/dev/null; printf '%s\n' "$m"; } >"$tmp" &&
			    sync "$tmp" 2>/dev/null; mv -f "$tmp" "$conf"
			kv persisted 1
		fi
	done
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
	# shellcheck disable=SC2086
	if ! err=$(ip route change $base $ROUTE 2>&1); then
		kv error "$err"
	fi
	kv live "$(ip route show default 2>/dev/null | head -n 1)"
	[ "$PERSIST" = unit ] && persist_route
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
		t=
		if mkdir -p "${UNIT%/*}" "${UNIT_LINK%/*}" &&
		    t=$(mktemp "$UNIT.XXXXXX") &&
		    printf '%s\n' "$unit" >"$t" && chmod 0644 "$t" &&
		    { sync "$t" 2>/dev/null; mv -f "$t" "$UNIT"; }; then
			CHANGED_ANY=1
			kv persisted "$UNIT"
		else
			[ -n "$t" ] && rm -f "$t"
			kv error "cannot write $UNIT"
			return
		fi
	fi
	[ -L "$UNIT_LINK" ] || ln -sf ../tcptune-route.service "$UNIT_LINK"
}

# Save what was there before tcptune first touched FILE: the file (or the
# fact that there was none) and the live value of every key the new file
# sets. Later applies keep this first backup, so rollback always returns to
# the host's own configuration.
save_backup() {
	b=$(backup_dir)
	[ -d "$b" ] && return 0
	mkdir -p "$b.tmp" || return 1
	if [ -f "$FILE" ]; then
		cp -p "$FILE" "$b.tmp/orig"
	else
		: >"$b.tmp/absent"
	fi
	file_keys "$1" | while IFS='	' read -r k v; do
		keypath "$k"
		[ -e "$KP" ] || continue
		readkey "$KP"
		printf '%s\t%s\n' "$k" "$CUR"
	done >"$b.tmp/live"
	[ -n "$QDISC" ] && tc qdisc show dev "$DEV" 2>/dev/null | head -n 1 \
	    >"$b.tmp/qdisc"
	if [ -n "$ROUTE" ]; then
		ip route show default 2>/dev/null | head -n 1 >"$b.tmp/route"
		[ -e "$UNIT" ] || : >"$b.tmp/no-unit"
	fi
	sync 2>/dev/null
	mv "$b.tmp" "$b"
	kv backup "$b"
}

# The probe after a change. Only the sysctls and sysctl.d files changed
# unless a qdisc, module or route was set too.
reprobe() {
	[ -n "$PROBE" ] || return 0
	# Nothing written, no key changed: the facts the controller has are
	# still true, and a rerun stays one cheap round trip.
	[ -n "$CHANGED_ANY$QDISC$MODULES$ROUTE" ] || [ "$MODE" = rollback ] ||
	    return 0
	printf '@@probe\n'
	if [ -z "$QDISC$MODULES$ROUTE" ]; then
		printf '%s' "$PROBE" | TCPTUNE_PROBE_ONLY=sysctl sh -s
	else
		printf '%s' "$PROBE" | sh -s
	fi
}

do_apply() {
	dir=${FILE%/*}
	mkdir -p "$dir" "$STATE/backup" || { printf '@write\n'; kv error "cannot create $dir"; return; }
	tmp=$(mktemp "$dir/.${FILE##*/}.XXXXXX") || { printf '@write\n'; kv error "cannot create a temp file in $dir"; return; }
	# A connection cut mid-apply must not leave the temp file behind.
	trap 'rm -f "$tmp"' EXIT HUP INT TERM PIPE
	cat >"$tmp"
	printf '@write\n'
	had_old=
	written=
	undo=
	[ -f "$FILE" ] && had_old=1
	# Same keys and values: leave the file alone even if its comments
	# differ (they quote the RTT measured on the day it was written), so
	# a rerun changes nothing.
	if [ -z "$had_old" ] && [ -z "$(file_keys "$tmp")" ]; then
		# Nothing for the file (a play with only a route task, say):
		# no empty drop-in, but a backup of what the rest changes.
		rm -f "$tmp"
		kv status none
		written=
		[ -n "$QDISC$ROUTE" ] && save_backup /dev/null
	elif [ -n "$had_old" ] && { cmp -s "$tmp" "$FILE" ||
	    [ "$(file_keys "$tmp")" = "$(file_keys "$FILE")" ]; }; then
		rm -f "$tmp"
		kv status unchanged
		written=
	else
		save_backup "$tmp"
		[ -n "$had_old" ] && cp -p "$FILE" "$(backup_dir)/previous"
		chmod 0644 "$tmp"
		# sync FILE (coreutils >= 8.24) flushes the data before the
		# rename makes it visible, so a crash leaves old or new.
		sync "$tmp" 2>/dev/null || sync
		if mv -f "$tmp" "$FILE"; then
			sync "$dir" 2>/dev/null
			kv status written
			written=1
			CHANGED_ANY=1
		else
			rm -f "$tmp"
			kv error "cannot rename into $FILE"
			return
		fi
	fi
	trap - EXIT HUP INT TERM PIPE
	# Load only our file, key by key, reading each back. The loop runs in
	# this shell (not a pipeline) so that a refusal can undo the rest.
	undo=
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
		# The kernel refused a value: leave the host as it was. Put the
		# previous file back (or remove ours) and the values we changed.
		printf '@undo\n'
		if [ -n "$written" ]; then
			if [ -n "$had_old" ]; then
				t2=$(mktemp "$dir/.${FILE##*/}.XXXXXX") &&
				    cp -p "$(backup_dir)/previous" "$t2" &&
				    sync "$t2" 2>/dev/null && mv -f "$t2" "$FILE"
				kv file restored
			else
				rm -f "$FILE"
				kv file removed
			fi
			sync "$dir" 2>/dev/null
		fi
		CHECK=
		while IFS='	' read -r k v; do
			[ -n "$k" ] || continue
			keypath "$k"
			{ printf '%s\n' "$v" >"$KP"; } 2>/dev/null
		done <<UNDO
$undo
UNDO
		printf '@undo\n'
		kv status undone
		return
	fi
	load_modules
	set_qdisc
	set_route
	# What this apply replaced, for a rollback to "previous" (the gate of
	# iperf3_verify): the file (or that there was none) and the values it
	# changed. A run that changed nothing keeps the last snapshot.
	if [ -n "$CHANGED_ANY" ]; then
		b=$(backup_dir)
		if [ -n "$written" ]; then
			if [ -n "$had_old" ]; then
				rm -f "$b/previous.absent"
			else
				rm -f "$b/previous"
				: >"$b/previous.absent"
			fi
		fi
		printf '%s' "$undo" >"$b/previous.live"
	fi
}

# Put a saved copy ($1) back over FILE atomically.
restore_file() {
	tmp=$(mktemp "${FILE%/*}/.${FILE##*/}.XXXXXX") &&
	    trap 'rm -f "$tmp"' EXIT HUP INT TERM PIPE &&
	    cp -p "$1" "$tmp" && sync "$tmp" 2>/dev/null
	mv -f "$tmp" "$FILE"
	trap - EXIT HUP INT TERM PIPE
}

do_rollback_previous() {
	b=$(backup_dir)
	printf '@rollback\n'
	if [ -f "$b/previous" ]; then
		restore_file "$b/previous"
		kv file restored
	elif [ -e "$b/previous.absent" ]; then
		rm -f "$FILE"
		kv file removed
	elif [ ! -e "$b/previous.live" ]; then
		kv status nothing
		return
	fi
	sync "${FILE%/*}" 2>/dev/null
	while IFS='	' read -r k v; do
		[ -n "$k" ] && set_key "$k" "$v"
	done <"$b/previous.live"
	rm -f "$b/previous" "$b/previous.absent" "$b/previous.live"
	printf '@rollback\n'
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
	if [ -f "$b/orig" ]; then
		restore_file "$b/orig"
		kv file restored
	else
		rm -f "$FILE"
		kv file removed
	fi
	sync "${FILE%/*}" 2>/dev/null
	while IFS='	' read -r k v; do
		set_key "$k" "$v"
	done <"$b/live"
	# Leftovers of applies cut short (dot-files sysctl never reads).
	rm -f "${FILE%/*}/.${FILE##*/}."??????
	if [ -s "$b/qdisc" ] && [ -n "$DEV" ]; then
		kind=$(sed -n 's/^qdisc \([^ ]*\) .*/\1/p' "$b/qdisc")
		if [ -n "$kind" ] && [ "$kind" != noqueue ] && [ "$kind" != mq ]; then
			QDISC=$kind
			TXQ=
			set_qdisc
		fi
	fi
	if [ -s "$b/route" ]; then
		# shellcheck disable=SC2046
		ip route change $(cat "$b/route") 2>/dev/null
		[ -e "$b/no-unit" ] && rm -f "$UNIT" "$UNIT_LINK"
	fi
	rm -rf "$b"
	printf '@rollback\n'
	kv status restored
}

printf 'tcptune-apply 1\n'
case $MODE in
check)
	# Read only: no temp file, no write. The new content is held in a
	# variable so each key's live value can be shown beside it.
	CHECK=1
	old_file
	new=$(cat)
	printf '%s\n' "$new" | file_keys /dev/stdin | while IFS='	' read -r k v; do
		set_key "${k#-}" "$v"
	done
	if [ -n "$QDISC" ]; then
		printf '@qdisc\n'
		kv dev "$DEV"
		kv live "$(tc qdisc show dev "$DEV" 2>/dev/null | head -n 1)"
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
			sed -e 's/^/|/' "$orig"
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
	do_apply
	reprobe
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
