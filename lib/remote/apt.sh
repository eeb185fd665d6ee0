# tcptune apt: the host's part of a package/apt task (modules/mod-apt.c).
# `read` (after `apt-get update` when UPDATE says so and the cache is
# older than VALID seconds, as the module updates before it looks) shows
# the cache's time and each package's dpkg status, installed version and
# candidate; the decision is made on the controller (lib/tune/aptplan.c);
# `simulate` (check mode: apt-get --simulate changes nothing) and `write`
# run the one apt-get command it decided, as the module words it.
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   MODE     read | simulate | write
#   NAMES    read: the packages, as sh words; write: the installed ones to
#            mark manual after an install (as the module does)
#   UPDATE   read: 1 to update the cache when it is older than VALID
#   VALID    read: seconds (0: update whenever UPDATE is 1)
#   ACTION   simulate, write: install | remove
#   LIST     simulate, write: the packages to act on, as sh words
#
# Under the tests (TCPTUNE_TEST_ROOT), ROOT/bin holds stubs of apt-get,
# apt-cache, apt-mark and dpkg-query, and ROOT/var/lib/apt the cache.
#
# Output: "tcptune-apt 1", then sections of "key=value" lines (escaped as
# the prelude's kv does): @update (rc, out, err of apt-get update), @cache
# (mtime: the cache's time before, after: after an update, now: the
# host's clock), one @pkg per package (name, status: dpkg's
# db:Status-Abbrev, version, candidate: apt-cache policy's, known: 1 when
# apt-cache knows the package), @action and @mark (rc, out, err), "@done".

# The cache's time as the module reads it: the update-success stamp's
# mtime, else the lists directory's, else 0.
cache_mtime() {
	for cm_f in "$ROOT/var/lib/apt/periodic/update-success-stamp" \
	    "$ROOT/var/lib/apt/lists"; do
		if [ -e "$cm_f" ]; then
			stat -c %Y "$cm_f"
			return
		fi
	done
	echo 0
}

# shellcheck disable=SC2120 # "$@" is set by set -- inside
do_read() {
	printf '@cache\n'
	rd_m=$(cache_mtime)
	rd_now=$(date +%s)
	kv mtime "$rd_m"
	kv now "$rd_now"
	if [ "$UPDATE" = 1 ] && { [ "$VALID" = 0 ] ||
	    [ $((rd_m + VALID)) -lt "$rd_now" ]; }; then
		run_shown update apt-get update -q || return
		printf '@cache\n'
		kv after "$(cache_mtime)"
	fi
	eval "set -- $NAMES"
	# one apt-cache for all (it loads the whole cache each time): a
	# section "NAME:" per package it knows, its "  Candidate: V" line
	rd_pol=$(apt-cache policy "$@" 2>/dev/null)
	for rd_p do
		printf '@pkg\n'
		kv name "$rd_p"
		# shellcheck disable=SC2016 # dpkg-query's own ${field}s
		kv status "$(dpkg-query -W -f='${db:Status-Abbrev}' "$rd_p" \
		    2>/dev/null)"
		# shellcheck disable=SC2016
		kv version "$(dpkg-query -W -f='${Version}' "$rd_p" 2>/dev/null)"
		rd_kc=$(printf '%s\n' "$rd_pol" | awk -v p="$rd_p:" '
		    $0 == p { f = 1; k = 1; next }
		    /^[^ ]/ { f = 0 }
		    f && $1 == "Candidate:" { c = $2 }
		    END { print (k ? 1 : 0) " " c }')
		kv known "${rd_kc%% *}"
		kv candidate "${rd_kc#* }"
	done
}

# The module's own command: apt-get -y with its dpkg options, --simulate
# in check mode.
# shellcheck disable=SC2120 # "$@" is set by set -- inside
do_act() {
	DEBIAN_FRONTEND=noninteractive
	DEBIAN_PRIORITY=critical
	export DEBIAN_FRONTEND DEBIAN_PRIORITY
	da_sim=
	[ "$MODE" = simulate ] && da_sim=--simulate
	eval "set -- $LIST"
	case $ACTION in
	install)
		# shellcheck disable=SC2086 # da_sim: no word or one
		run_shown action apt-get -y -o Dpkg::Options::=--force-confdef \
		    -o Dpkg::Options::=--force-confold $da_sim install "$@" ||
		    return
		if [ -z "$da_sim" ] && [ -n "$NAMES" ]; then
			eval "set -- $NAMES"
			run_shown mark apt-mark manual "$@"
		fi
		;;
	remove)
		# shellcheck disable=SC2086
		run_shown action apt-get -q -y \
		    -o Dpkg::Options::=--force-confdef \
		    -o Dpkg::Options::=--force-confold $da_sim remove "$@"
		;;
	*)
		printf '@action\n'
		kv rc 2
		kv err "unknown action $ACTION"
		;;
	esac
}

printf 'tcptune-apt 1\n'
# shellcheck disable=SC2153 # MODE is an input of the header
case $MODE in
read) do_read ;;
simulate|write) do_act ;;
*) printf '@action\n'; kv rc 2; kv err "unknown mode $MODE" ;;
esac
printf '@done\n'
