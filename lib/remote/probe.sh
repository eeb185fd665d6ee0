# tcptune host probe: gathers every fact the controller needs in one exec.
#
# Run as a remote program (lib/remote/prelude.sh), by dash or bash, as root
# or as any user, its header giving:
#   TARGETS  the hosts to measure the RTT to, a list (sh words)
#   ONLY     "sysctl": just the sysctls and sysctl.d files, for the
#            read-back after an apply (the other facts did not change)
#   DROPIN   the managed drop-in to show whole, comments too ("" = none):
#            what a check-mode apply reads, so that plan and drift need no
#            second round trip (modules/tune.c)
#   LINKS    interfaces to show as well (sh words), beside the default
#            route's and the ones the TARGETS' routes go out of: the
#            re-probe after an apply names those it set a qdisc on
# It never changes anything on the host and always exits 0: a missing tool
# makes the affected facts unknown with a reason, it does not fail the probe.
#
# Output (parsed by lib/remote/probe.c, described in docs/facts.md):
#
#	tcptune-probe 1		first line: format name and version
#	@SECTION[ ARG]		starts a section; ARG is escaped like a value
#	KEY=VALUE		a fact in the current section
#	@end			last line: its absence means truncated output
#
# KEY is [a-z0-9_.]+. VALUE is everything after the first '=' up to the
# newline, with '\' written as '\\' and a newline as '\n'; nothing else is
# escaped, so tabs, spaces and '=' appear as themselves. The script reports
# raw observations (an ethtool line, a tc line, a route line) and leaves their
# interpretation to the parser, where it can be unit-tested.
#
# Speed matters (it runs on a hundred hosts at once): values are read from
# /proc and /sys with the read builtin, tools are forked only where no file
# has the fact, and the RTT measurements run in parallel.
#
# Under the tests (TCPTUNE_TEST_ROOT, see the prelude), a stub in ROOT/bin
# can stand in for ping, and ROOT/lib/modules is the modules directory
# looked in without modinfo.

section() {
	if [ $# -gt 1 ]; then
		esc "$2"
		printf '@%s %s\n' "$1" "$E"
	else
		printf '@%s\n' "$1"
	fi
}

# Set R to the first line of file $1, or return 1 if it cannot be read.
# Not for /proc/sys: dash's read builtin reads one byte at a time and integer
# sysctls answer a read at a non-zero offset with end of file.
readline() {
	R=
	IFS= read -r R 2>/dev/null <"$1" || [ -n "$R" ]
}

# Every /proc/sys file the probe reads, fetched by one grep that prints
# PATH:VALUE for each line (and nothing for a file that does not exist).
PROCSYS='kernel/osrelease kernel/version kernel/hostname
net/ipv4/tcp_available_congestion_control
net/ipv4/tcp_rmem net/ipv4/tcp_wmem net/core/rmem_max net/core/wmem_max
net/core/rmem_default net/core/wmem_default net/ipv4/tcp_mem
net/ipv4/tcp_congestion_control net/core/default_qdisc
net/ipv4/tcp_mtu_probing net/ipv4/tcp_notsent_lowat
net/ipv4/tcp_slow_start_after_idle'
procsys_fetch() {
	ps_paths=
	for ps_p in $PROCSYS; do
		ps_paths="$ps_paths /proc/sys/$ps_p"
	done
	if have grep; then
		# shellcheck disable=SC2086
		PSV=$(grep -H '' $ps_paths 2>/dev/null)
	else
		PSV=
		for ps_p in $ps_paths; do
			[ -e "$ps_p" ] && PSV="$PSV$NL$ps_p:$(cat "$ps_p" 2>/dev/null)"
		done
	fi
	PSV="$NL$PSV$NL"
}

# Set R to the value of /proc/sys/$1 as fetched, or return 1 if it had none.
procsys() {
	R=
	case $PSV in
	*"$NL/proc/sys/$1:"*) ;;
	*) return 1 ;;
	esac
	R=${PSV#*"$NL/proc/sys/$1:"}
	R=${R%%"$NL"*}
}

# Set R to $1 with runs of blanks squeezed to one space and both ends trimmed.
squeeze() {
	set -f
	# shellcheck disable=SC2086
	set -- $1
	R=$*
	set +f
}

# Set R to $1 with every '.' replaced by '/'.
dots2slashes() {
	R=
	d2s=$1
	while :; do
		case $d2s in
		*.*) R="$R${d2s%%.*}/"; d2s=${d2s#*.} ;;
		*) R="$R$d2s"; break ;;
		esac
	done
}

# Append a fact to O instead of printing it, for output that must be written
# in one piece.
okv() {
	esc "$2"
	O="$O$1=$E$NL"
}


# The gathering runs in functions, whose `set --` leaves the script's own
# arguments (the RTT targets) alone.

# ---- who we are: writability of /proc/sys depends on it
probe_self() {
	section probe
	uid=
	while IFS= read -r l; do
		case $l in
		Uid:*)
			set -f
			# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
			set -- $l
			set +f
			uid=$2
			break ;;
		esac
	done </proc/self/status 2>/dev/null
	[ -n "$uid" ] || uid=$(id -u 2>/dev/null)
	kv uid "$uid"
}

# ---- system
probe_system() {
	section system
	if procsys kernel/osrelease; then release=$R; else release=$(uname -r 2>/dev/null); fi
	kv release "$release"
	if procsys kernel/version; then kv version "$R"; else kv version "$(uname -v 2>/dev/null)"; fi
	kv machine "$(uname -m 2>/dev/null)"
	if procsys kernel/hostname; then kv hostname "$R"; else kv hostname "$(uname -n 2>/dev/null)"; fi

	osr=/etc/os-release
	[ -r $osr ] || osr=/usr/lib/os-release
	if [ -r $osr ]; then
		while IFS= read -r l || [ -n "$l" ]; do
			case $l in
			ID=*|VERSION_ID=*|PRETTY_NAME=*)
				v=${l#*=}
				# os-release values are shell-quoted; unquote the plain cases.
				case $v in
				\"*\") v=${v#\"}; v=${v%\"} ;;
				\'*\') v=${v#\'}; v=${v%\'} ;;
				esac
				case $l in
				ID=*) kv os_id "$v" ;;
				VERSION_ID=*) kv os_version_id "$v" ;;
				PRETTY_NAME=*) kv os_pretty_name "$v" ;;
				esac ;;
			esac
		done <$osr
	else
		kv os_error "no /etc/os-release"
	fi

	if have systemd-detect-virt; then
		# Exit status 1 with "none" means not virtualised: not an error.
		kv virt "$(systemd-detect-virt -v 2>/dev/null)"
		kv container "$(systemd-detect-virt -c 2>/dev/null)"
	else
		kv virt_error "systemd-detect-virt not installed"
		# Containers matter most (they make sysctls read-only): look for the
		# marks the common runtimes leave.
		c=
		if readline /run/systemd/container; then c=$R
		elif [ -e /.dockerenv ]; then c=docker
		elif [ -e /run/.containerenv ]; then c=podman
		elif [ -d /proc/vz ] && [ ! -d /proc/bc ]; then c=openvz
		fi
		[ -n "$c" ] && kv container_guess "$c"
	fi
}

# ---- kernel config
# The lines the parser needs. CONFIG_MODULES is in every kernel config, set or
# "is not set": a file without it is empty or not a config (a file hidden by a
# bind mount of /dev/null, a truncated install) and tells nothing.
CFGRE='^(# )?CONFIG_(MODULES|TCP_CONG_BBR|NET_SCH_FQ|NET_SCH_FQ_CODEL)[= ]'

# Take $1 as the config if the lines read from it are a config's; else add
# why not ($2) to cfgerr.
config_take() {
	case "$NL$cfglines" in
	*"${NL}CONFIG_MODULES="*|*"$NL# CONFIG_MODULES is not set"*)
		cfg=$1 ;;
	*)
		cfgerr="$cfgerr${cfgerr:+; }$1 $2" ;;
	esac
}

probe_config() {
	section kernel_config
	cfg=
	cfgerr=
	bootcfg=/boot/config-$release
	# /proc/config.gz is the running kernel's own config; the /boot file
	# is what a package installed under the same release name.
	if [ -r /proc/config.gz ]; then
		cfglines=$( { if have zcat; then zcat /proc/config.gz; else
		    gzip -dc /proc/config.gz; fi; } 2>/dev/null | grep -E "$CFGRE")
		config_take /proc/config.gz "does not decompress to a kernel config"
	elif [ -e /proc/config.gz ]; then
		cfgerr="cannot read /proc/config.gz"
	fi
	if [ -z "$cfg" ] && [ -r "$bootcfg" ]; then
		cfglines=$(grep -E "$CFGRE" "$bootcfg" 2>/dev/null)
		config_take "$bootcfg" "is not a kernel config (no CONFIG_MODULES line)"
	elif [ -z "$cfg" ] && [ -e "$bootcfg" ]; then
		cfgerr="$cfgerr${cfgerr:+; }cannot read $bootcfg"
	fi
	if [ -n "$cfg" ]; then
		kv source "$cfg"
		while IFS= read -r l; do
			[ -n "$l" ] && kv line "$l"
		done <<EOF
$cfglines
EOF
	else
		cfglines=
		kv error "${cfgerr:-no $bootcfg or /proc/config.gz}"
	fi

	# ---- modules: a module is usable if built in, loaded, or loadable
	for m in tcp_bbr:CONFIG_TCP_CONG_BBR sch_fq:CONFIG_NET_SCH_FQ \
	    sch_fq_codel:CONFIG_NET_SCH_FQ_CODEL; do
		name=${m%%:*}
		opt=${m#*:}
		section module "$name"
		if [ -d "/sys/module/$name" ]; then kv sysfs 1; else kv sysfs 0; fi
		state=unknown
		if [ -n "$cfg" ]; then
			state=absent
			case "$NL$cfglines$NL" in
			*"$NL$opt=y$NL"*) state=y ;;
			*"$NL$opt=m$NL"*) state=m ;;
			esac
		fi
		# Only look for the module when the config leaves the
		# question open.
		case $state in
		m|unknown) module_find "$name" ;;
		esac
	done
}

# Report where module $1 is: modinfo's filename ("(builtin)" or a path, and
# whether that file is there: modinfo reads only the index, and modprobe
# fails on a file that is gone); without modinfo, the modules directory's
# own lists.
module_find() {
	if have modinfo; then
		if r=$(modinfo -F filename "$1" 2>/dev/null) && [ -n "$r" ]; then
			r=${r%%"$NL"*}
			kv modinfo "$r"
			case $r in
			/*) if [ -f "$r" ]; then kv file 1; else kv file 0; fi ;;
			esac
		else
			kv modinfo_error "module '$1' not found"
		fi
		return
	fi
	kv modinfo_error "modinfo not installed"
	md=$ROOT/lib/modules/$release
	if [ ! -r "$md/modules.dep" ]; then
		kv moddir_error "no $md/modules.dep"
		return
	fi
	# Lines are "kernel/net/sched/sch_fq.ko[.xz]" (modules.builtin) and
	# "kernel/net/sched/sch_fq.ko[.xz]: DEPS" (modules.dep).
	if grep -qE "(^|/)$1\\.ko(\\.[a-z]+)?\$" "$md/modules.builtin" 2>/dev/null; then
		kv moddir "(builtin)"
		return
	fi
	r=$(grep -E "(^|/)$1\\.ko(\\.[a-z]+)?:" "$md/modules.dep" 2>/dev/null)
	r=${r%%"$NL"*}
	r=${r%%:*}
	if [ -z "$r" ]; then
		kv moddir_error "module '$1' not in $md/modules.dep"
		return
	fi
	case $r in /*) ;; *) r=$md/$r ;; esac
	kv moddir "$r"
	if [ -f "$r" ]; then kv file 1; else kv file 0; fi
}

# ---- congestion control
probe_congestion() {
	section congestion
	procsys net/ipv4/tcp_available_congestion_control && {
		squeeze "$R"
		kv available "$R"
}
procsys net/ipv4/tcp_congestion_control && kv current "$R"

}

# ---- default route
probe_route() {
	section route
	ifc=
	if have ip; then
		routes=$(ip -o -4 route show default 2>/dev/null)
		fam=inet
		if [ -z "$routes" ]; then
			routes=$(ip -o -6 route show default 2>/dev/null)
			fam=inet6
		fi
		# The lowest metric wins; ties go to the first listed, like the kernel.
		best=
		bestm=
		while IFS= read -r l; do
			[ -n "$l" ] || continue
			set -f
			# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
			set -- $l
			set +f
			rm_=0
			rd_=
			while [ $# -gt 0 ]; do
				case $1 in
				metric) rm_=$2 ;;
				dev) [ -n "$rd_" ] || rd_=$2 ;;
				esac
				shift
			done
			[ -n "$rd_" ] || continue
			if [ -z "$best" ] || [ "$rm_" -lt "$bestm" ] 2>/dev/null; then
				best=$l
				bestm=$rm_
				ifc=$rd_
			fi
		done <<EOF
$routes
EOF
		if [ -n "$best" ]; then
			kv family "$fam"
			kv line "$best"
		fi
	else
		kv ip_error "ip not installed"
		# The kernel's table still names the interface and the gateway.
		while IFS= read -r l; do
			set -f
			# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
			set -- $l
			set +f
			if [ "$2" = 00000000 ] && [ "$8" = 00000000 ]; then
				ifc=$1
				kv family inet
				kv procnet "$l"
				break
			fi
		done </proc/net/route 2>/dev/null
	fi
	[ -n "$ifc" ] && kv interface "$ifc"
	DEFIF=$ifc
}

# ---- the interface that carries the traffic to each target: the kernel's
# own answer (`ip route get`: policy rules, the main table or another, a
# route through a second NIC). A connect() first picks the source address
# with no source, then routes again from it, which is what a rule "from
# ADDR" acts on; so the lookup is done twice the same way. A name is looked
# up first (ip takes addresses only). VIA collects the interfaces.
probe_routes() {
	VIA=
	for t in "$@"; do
		section via "$t"
		if ! have ip; then
			kv error "ip not installed"
			continue
		fi
		a=$t
		case $t in
		*:*) ;;		# IPv6
		*[!0-9.]*)
			a=$(getent ahosts "$t" 2>/dev/null)
			a=${a%%[[:space:]]*}
			if [ -z "$a" ]; then
				kv error "cannot resolve $t"
				continue
			fi
			kv address "$a" ;;
		esac
		if ! r=$(ip -o route get "$a" 2>&1); then
			squeeze "${r%%"$NL"*}"
			kv error "$R"
			continue
		fi
		squeeze "${r%%"$NL"*}"
		kv first "$R"
		route_word src "$R"
		if [ -n "$W" ] && r2=$(ip -o route get "$a" from "$W" 2>&1); then
			squeeze "${r2%%"$NL"*}"
		fi
		kv line "$R"
		route_word dev "$R"
		[ -n "$W" ] && case " $VIA " in
		*" $W "*) ;;
		*) VIA="$VIA $W" ;;
		esac
	done
}

# Set W to the word after the first word $1 of route line $2 ("" if none).
route_word() {
	W=
	set -f
	# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
	set -- "$1" $2
	set +f
	rw_k=$1
	shift
	while [ $# -gt 1 ]; do
		if [ "$1" = "$rw_k" ]; then
			W=$2
			return
		fi
		shift
	done
}

# ---- each interface the traffic leaves by: the default route's, the
# targets' and LINKS, each once.
probe_links() {
	pl_seen=
	# shellcheck disable=SC2086 # interface names: words
	for pl_if in $DEFIF $VIA $LINKS; do
		case " $pl_seen " in
		*" $pl_if "*) continue ;;
		esac
		pl_seen="$pl_seen $pl_if"
		probe_link "$pl_if"
	done
}

# The link facts of interface $1: MTU, state, queues, speed, live qdiscs.
probe_link() {
	ifc=$1
	section link "$ifc"
	d=/sys/class/net/$ifc
	readline "$d/mtu" && kv mtu "$R"
	readline "$d/operstate" && kv operstate "$R"
	n=0
	for q in "$d"/queues/tx-*; do
		[ -e "$q" ] && n=$((n + 1))
	done
	kv tx_queues "$n"
	if have ethtool; then
		eo=$(ethtool "$ifc" 2>&1)
		ers=$?
		got=
		while IFS= read -r l; do
			squeeze "$l"
			case $R in
			Speed:*) kv ethtool_speed "${R#Speed: }"; got=1 ;;
			Duplex:*) kv ethtool_duplex "${R#Duplex: }" ;;
			esac
		done <<EOF
$eo
EOF
		if [ -z "$got" ] && [ "$ers" -eq 0 ]; then
			# Virtio and UML NICs: ethtool works and shows
			# only "Link detected", no speed line.
			kv ethtool_error "ethtool shows no speed for $ifc (the driver reports none)"
		elif [ -z "$got" ]; then
			squeeze "${eo%%"$NL"*}"
			kv ethtool_error "$R"
		fi
	else
		kv ethtool_error "ethtool not installed"
		# The same kernel call behind ethtool; reading fails (EINVAL)
		# where the driver reports no speed.
		if readline "$d/speed"; then
			kv sysfs_speed "$R"
		else
			kv sysfs_speed_error "cannot read $d/speed"
		fi
		readline "$d/duplex" && kv sysfs_duplex "$R"
	fi
	if have tc; then
		to=$(tc qdisc show dev "$ifc" 2>&1)
		while IFS= read -r l; do
			[ -n "$l" ] || continue
			squeeze "$l"
			case $R in
			qdisc\ *) kv qdisc "$R" ;;
			*) kv tc_error "$R" ;;
			esac
		done <<EOF
$to
EOF
	else
		kv tc_error "tc not installed"
	fi
}

# ---- memory
probe_memory() {
	section memory
	while IFS= read -r l; do
		case $l in
		MemTotal:*)
			set -f
			# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
			set -- $l
			set +f
			kv mem_total_kb "$2"
			break ;;
		esac
	done </proc/meminfo 2>/dev/null
}

# ---- current sysctls. Writability is access(2) on the /proc/sys file, which
# for root follows the file mode (0444 for keys read-only in this network
# namespace) and a read-only mount; the mode is reported as well so that an
# unprivileged probe can still tell what root could write.
probe_sysctl() {
	paths=
	for k in net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.core.rmem_max \
	    net.core.wmem_max net.core.rmem_default net.core.wmem_default \
	    net.ipv4.tcp_mem net.ipv4.tcp_congestion_control net.core.default_qdisc \
	    net.ipv4.tcp_mtu_probing net.ipv4.tcp_notsent_lowat \
	    net.ipv4.tcp_slow_start_after_idle; do
		dots2slashes "$k"
		p=/proc/sys/$R
		sp=$R
		section sysctl "$k"
		if [ -e "$p" ]; then
			kv present 1
			if procsys "$sp"; then
				squeeze "$R"
				kv value "$R"
			else
				kv read_error "cannot read $p"
			fi
			if [ -w "$p" ]; then kv w 1; else kv w 0; fi
			paths="$paths $p"
		else
			kv present 0
		fi
	done
	section sysctl_modes
	if [ -n "$paths" ]; then
		set -f
		# shellcheck disable=SC2086 # a list of fixed /proc/sys paths
		lo=$(ls -lnd $paths 2>/dev/null)
		set +f
		while IFS= read -r l; do
			[ -n "$l" ] && kv ls "$l"
		done <<EOF
$lo
EOF
	fi
	while IFS= read -r l; do
		set -f
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- $l
		set +f
		case $2 in
		/proc/sys|/proc/sys/*)
			case ,$4, in *,ro,*) kv ro_mount "$2" ;; esac ;;
		esac
	done </proc/self/mounts 2>/dev/null
}

# ---- sysctl.d files, in priority order; the precedence is computed on the
# controller (lib/remote/sysctld.c). Only blank and comment lines are dropped here.
sysctl_file() {
	section sysctl_file "$1"
	kv dir "$2"
	if [ -L "$1" ]; then
		kv link "$(readlink "$1" 2>/dev/null)"
	fi
	if [ ! -r "$1" ]; then
		kv error "cannot read $1"
		return
	fi
	while IFS= read -r l || [ -n "$l" ]; do
		l=${l#"${l%%[![:space:]]*}"}
		l=${l%"${l##*[![:space:]]}"}
		case $l in
		''|\#*|\;*) ;;
		*) kv line "$l" ;;
		esac
	done <"$1"
}
probe_sysctld() {
	# /lib is /usr/lib on merged-/usr systems: list each directory once.
	# Each is known by its physical path (cd -P sets PWD, no fork; test's
	# -ef is not POSIX); SEEN holds "physical<TAB>dir" lines.
	seen=
	owd=$PWD
	for dir in /etc/sysctl.d /run/sysctl.d /usr/local/lib/sysctl.d \
	    /usr/lib/sysctl.d /lib/sysctl.d; do
		[ -d "$dir" ] || continue
		dup=
		if cd -P "$dir" 2>/dev/null; then
			real=$PWD
			case "$NL$seen" in
			*"$NL$real	"*)
				dup=$NL$seen
				dup=${dup#*"$NL$real	"}
				dup=${dup%%"$NL"*} ;;
			*) seen="$seen$real	$dir$NL" ;;
			esac
		fi
		if [ -n "$dup" ]; then
			section sysctl_dir "$dir"
			kv same_as "$dup"
			continue
		fi
		for f in "$dir"/*.conf; do
			[ -e "$f" ] || [ -L "$f" ] || continue
			sysctl_file "$f" "$dir"
		done
	done
	cd "$owd" 2>/dev/null || cd /
	# With systemd as PID 1 (sd_booted(): /run/systemd/system), the files
	# are applied at boot by systemd-sysctl, which never reads
	# /etc/sysctl.conf (only through a link in sysctl.d, such as Debian's
	# 99-sysctl.conf); procps' `sysctl --system` reads it last.
	section sysctl_boot
	if [ -d /run/systemd/system ]; then kv systemd 1; else kv systemd 0; fi
	[ -e /etc/sysctl.conf ] && sysctl_file /etc/sysctl.conf ""
}

# ---- the managed drop-in as it is, every line (its comments too), for the
# diff a plan shows: the same bytes apply.sh's old_file sends in check mode.
probe_dropin() {
	[ -n "$DROPIN" ] || return 0
	section dropin "$DROPIN"
	if [ ! -e "$DROPIN" ] && [ ! -L "$DROPIN" ]; then
		kv exists 0
		return
	fi
	if [ ! -f "$DROPIN" ] || [ ! -r "$DROPIN" ]; then
		kv error "cannot read $DROPIN"
		return
	fi
	kv exists 1
	pd_last=
	while IFS= read -r l || { [ -n "$l" ] && pd_last=1; }; do
		kv line "$l"
		[ -z "$pd_last" ] || break
	done <"$DROPIN"
	[ -z "$pd_last" ] || kv no_newline 1
}

# ---- tuned rewrites sysctls behind our back when its profile says so
probe_tuned() {
	section tuned
	if readline /run/tuned/tuned.pid && [ -d "/proc/$R" ]; then
		kv state active
		kv method pidfile
	elif have tuned || [ -x /usr/sbin/tuned ]; then
		if have systemctl; then
			kv state "$(systemctl is-active tuned 2>/dev/null)"
			kv method systemctl
		else
			kv state inactive
			kv method pidfile
		fi
	else
		kv state absent
	fi
}

# ---- RTT to each target, all in parallel. ping first; where it is missing
# or gets no reply (not permitted, ICMP filtered) the TCP handshake to port 22
# is timed with bash's /dev/tcp and $EPOCHREALTIME (bash 5, stock on Debian):
# connect() returns after one round trip whether the peer accepts or refuses.
# shellcheck disable=SC2016 # a bash script, run with the target as $1
rtt_tcp='
t=$1
s=
# The first connect also pays for name service and socket set-up: a warm-up
# whose time is not reported.
for i in 0 1 2 3; do
	a=${EPOCHREALTIME/./}
	if { exec 3<>"/dev/tcp/$t/22"; } 2>/dev/null; then
		b=${EPOCHREALTIME/./}
		exec 3>&-
		r=ok
	else
		b=${EPOCHREALTIME/./}
		# A refusal is a reply too; anything else ends the measurement.
		e=$( { exec 3<>"/dev/tcp/$t/22"; } 2>&1 )
		case $e in
		*"Connection refused"*) r=refused ;;
		*) echo "error ${e##*: }"; exit 0 ;;
		esac
	fi
	[ $i = 0 ] || s="$s $((b - a))"
done
echo "$r$s"
'
rtt_one() {
	esc "$1"
	O="@rtt $E$NL"
	ok=
	if have ping; then
		# "--": a target is never an option (a peer named "-f...").
		po=$(ping -c 3 -i 0.2 -W 2 -q -- "$1" 2>&1)
		pl=
		pe=
		while IFS= read -r l; do
			case $l in
			*min/avg/max*) pl=$l ;;
			*"packet loss"*)
				okv loss "$l"
				[ -n "$pe" ] || pe="no reply ($l)" ;;
			ping:*) [ -n "$pe" ] || pe=$l ;;
			esac
		done <<EOF
$po
EOF
		if [ -n "$pl" ]; then
			okv ping "$pl"
			ok=1
		else
			[ -n "$pe" ] || { squeeze "${po%%"$NL"*}"; pe=$R; }
			okv ping_error "$pe"
		fi
	else
		okv ping_error "ping not installed"
	fi
	if [ -z "$ok" ]; then
		if have bash; then
			if have timeout; then
				r=$(timeout 3 bash --norc --noprofile -c "$rtt_tcp" rtt "$1" 2>/dev/null)
			else
				r=$(bash --norc --noprofile -c "$rtt_tcp" rtt "$1" 2>/dev/null)
			fi
			case $r in
			ok*|refused*) okv tcp "$r" ;;
			error*) okv tcp_error "${r#error }" ;;
			*) okv tcp_error "timed out" ;;
			esac
		else
			okv tcp_error "bash not installed"
		fi
	fi
	# One write per target so that parallel targets do not interleave.
	printf '%s' "$O"
}
# The RTT targets become the arguments (TARGETS holds them as sh words).
eval "set -- $TARGETS"
printf 'tcptune-probe 1\n'
procsys_fetch
probe_self
printf 'args=%s\n' "$#"
if [ "$ONLY" != sysctl ]; then
	probe_system
	probe_config
	probe_congestion
	probe_route
	probe_routes "$@"
	probe_links
	probe_memory
fi
probe_sysctl
probe_sysctld
if [ "$ONLY" != sysctl ]; then
	probe_dropin
	probe_tuned
	for t in "$@"; do
		rtt_one "$t" &
	done
	wait
fi

printf '@end\n'
exit 0
