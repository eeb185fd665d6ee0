# tcptune host probe: gathers every fact the controller needs in one exec.
#
# Run as a remote program (lib/remote/prelude.sh), by dash or bash, as root
# or as any user, its header giving:
#   TARGETS  the hosts to measure the RTT to, a list (sh words)
#   ONLY     what to read, for the read-back after an apply (the other
#            facts did not change): "" everything; "sysctl" just the
#            sysctls and sysctl.d files; "net" those, congestion control,
#            the default route and the links (after a qdisc or a route was
#            set); "net modules" also the kernel config and the modules
#            (after a module was loaded)
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
# Speed matters (it runs on a hundred hosts at once, and a drift timer runs
# it every few minutes on busy hosts): the files read whole are read by one
# awk (fetch_all; grep without awk), the tools' outputs go to the same awk
# from one subshell that starts each by vfork (gather_out), the output is
# written in one piece (out_flush), single values from /sys with the read
# builtin, tools are run only where no file has the fact, and the RTT
# measurements run in parallel.
#
# Under the tests (TCPTUNE_TEST_ROOT, see the prelude), a stub in ROOT/bin
# can stand in for ping, and ROOT/lib/modules is the modules directory
# looked in without modinfo.

# The output is gathered and written in one piece (out_flush): one write(2)
# instead of one per line, so that sshd reads it, encrypts it and sends it
# in a few packets, not one per fact (each packet also costs the controller
# a decryption and a wake-up). kv (the prelude's prints at once) appends to
# OUT, the current section's lines, and section moves them to DONE: each
# append copies only its section, not the whole output so far.
OUT=
DONE=
section() {
	DONE="$DONE$OUT"
	if [ $# -gt 1 ]; then
		esc "$2"
		OUT="@$1 $E$NL"
	else
		OUT="@$1$NL"
	fi
}
kv() {
	esc "$2"
	OUT="$OUT$1=$E$NL"
}
out_flush() {
	printf '%s%s' "$DONE" "$OUT"
	DONE=
	OUT=
}

# Set R to the first line of file $1, or return 1 if it cannot be read.
# Not for /proc/sys: dash's read builtin reads one byte at a time and integer
# sysctls answer a read at a non-zero offset with end of file.
readline() {
	R=
	IFS= read -r R 2>/dev/null <"$1" || [ -n "$R" ]
}

# ---- the files read whole. dash's read builtin makes one read(2) per byte
# (it must not read past the line), so a loop of `read` over a file costs a
# system call per byte; and integer sysctls cannot be read that way at all
# (they answer a read at a non-zero offset with end of file). So the files
# the probe reads whole (the /proc/sys values, os-release, mounts, the
# sysctl.d files) are read by one awk (or grep) before the output begins (fetch_all),
# each file's lines into a variable of its own, and the output's loops split
# those variables with IFS (lines: no system call per byte, no process).

# Every /proc/sys file the probe reads; its value goes to PS_<path with '/'
# as '_'> (procsys). kernel/arch (Linux >= 6.1) is `uname -m` without a
# process.
PROCSYS='kernel/osrelease kernel/version kernel/hostname kernel/arch
net/ipv4/tcp_available_congestion_control
net/ipv4/tcp_rmem net/ipv4/tcp_wmem net/core/rmem_max net/core/wmem_max
net/core/rmem_default net/core/wmem_default net/ipv4/tcp_mem
net/ipv4/tcp_congestion_control net/core/default_qdisc
net/ipv4/tcp_mtu_probing net/ipv4/tcp_notsent_lowat
net/ipv4/tcp_slow_start_after_idle net/core/netdev_max_backlog'

# Set R to $1 with every character $2 replaced by character $3, by field
# splitting (no loop): with IFS unset (the default) when called, and $1 not
# ending in $2 (the last empty field would be lost).
subst() {
	sb_to=$3
	set -f
	IFS=$2
	# shellcheck disable=SC2086 # split on $2 on purpose, globbing off
	set -- $1
	IFS=$sb_to
	R="$*"
	unset IFS
	set +f
}

# fetch VAR PATH [VAR PATH...]: each VAR gets the lines of its PATH, each
# ended by a newline (blank lines as empty ones); a file that does not
# exist, cannot be read or is empty leaves its VAR unset. One grep for all:
# it prints PATH:LINE for each line, the files in the order given, so each
# line is told by the prefix of the file it belongs to. A path with ':' or
# a newline could be mistaken in that output; it is read on its own.
fetch() {
	fe_vars=
	fe_n=$(($# / 2))
	while [ "$fe_n" -gt 0 ]; do
		unset "$1"
		case $2 in
		*:*|*"$NL"*) fetch_one "$1" "$2" ;;
		*) if have grep; then
			fe_vars="$fe_vars$1 "
			set -- "$@" "$2"
		   else
			fetch_one "$1" "$2"
		   fi ;;
		esac
		shift 2
		fe_n=$((fe_n - 1))
	done
	[ $# -gt 0 ] || return 0
	fe_out=$(grep -aH '' "$@" 2>/dev/null)
	fe_v=${fe_vars%% *}
	set -f
	IFS=$NL
	for fe_l in $fe_out; do
		# Files with no line print nothing: skip to the line's file.
		while [ $# -gt 0 ]; do
			case $fe_l in
			"$1:"*) break ;;
			esac
			shift
			fe_vars=${fe_vars#* }
			fe_v=${fe_vars%% *}
		done
		[ $# -gt 0 ] || break
		fe_l=${fe_l#"$1:"}
		eval "$fe_v=\${$fe_v-}\$fe_l\$NL"
	done
	unset IFS
	set +f
}

# fetch's VAR PATH for one file, with cat (lines as cat prints them; blank
# lines at the end are lost, which no reader of these files minds).
fetch_one() {
	[ -r "$2" ] || return 0
	fo_t=$(cat -- "$2" 2>/dev/null)
	[ -n "$fo_t" ] || return 0
	eval "$1=\$fo_t\$NL"
}

# Set R to the value of the variable named $1 ("" if unset).
val() {
	eval "R=\${$1-}"
}

# Set R to the first line of /proc/sys/$1 as fetched, or return 1 if it had
# none.
procsys() {
	subst "$1" / _
	eval "[ -n \"\${PS_$R+x}\" ] || return 1; R=\$PS_$R"
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

# Append a fact to O instead of printing it, for output that must be written
# in one piece.
okv() {
	esc "$2"
	O="$O$1=$E$NL"
}


# The gathering runs in functions, whose `set --` leaves the script's own
# arguments (the RTT targets) alone.

# Set R to the first word after "$1:" in /proc/self/status as fetched (""
# without that line).
status_field() {
	R=
	set -f
	IFS=$NL
	for l in ${STATUS-}; do
		unset IFS
		case $l in
		"$1:"*)
			# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
			set -- $l
			R=${2-}
			break ;;
		esac
	done
	unset IFS
	set +f
}

# ---- who we are: writability of /proc/sys depends on it
probe_self() {
	section probe
	status_field Uid
	uid=$R
	[ -n "$uid" ] || uid=$(id -u 2>/dev/null)
	kv uid "$uid"
}

# ---- system
probe_system() {
	section system
	if procsys kernel/osrelease; then release=$R; else release=$(uname -r 2>/dev/null); fi
	kv release "$release"
	if procsys kernel/version; then kv version "$R"; else kv version "$(uname -v 2>/dev/null)"; fi
	if procsys kernel/arch; then kv machine "$R"; else kv machine "$(uname -m 2>/dev/null)"; fi
	if procsys kernel/hostname; then hn=$R; else hn=$(uname -n 2>/dev/null); fi
	kv hostname "$hn"

	if [ -r /etc/os-release ] || [ -r /usr/lib/os-release ]; then
		set -f
		IFS=$NL
		for l in ${OSR-}; do
			unset IFS
			case $l in
			ID=*|VERSION_ID=*|PRETTY_NAME=*|NAME=*|ID_LIKE=*|\
			VERSION_CODENAME=*|UBUNTU_CODENAME=*)
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
				NAME=*) kv os_name "$v" ;;
				ID_LIKE=*) kv os_id_like "$v" ;;
				VERSION_CODENAME=*) kv os_codename "$v" ;;
				UBUNTU_CODENAME=*) kv os_ubuntu_codename "$v" ;;
				esac ;;
			esac
		done
		unset IFS
		set +f
	else
		kv os_error "no /etc/os-release"
	fi

	# What Ansible's setup module reports besides (probe.c's
	# probe_ansible_facts names them): Debian's own version file, the
	# CPUs online, every interface, PID 1's name and the init system's
	# marks, the hostname's line of /etc/hosts (for the fqdn; not getent,
	# whose lookup waits for DNS where there is none).
	[ -z "${DEBV-}" ] || kv debian_version "${DEBV%%"$NL"*}"
	[ -z "${CPUS-}" ] || kv cpus_online "${CPUS%%"$NL"*}"
	v=
	for l in /sys/class/net/*; do
		[ -d "$l" ] && v="$v${v:+ }${l##*/}"
	done
	kv interfaces "$v"
	! readline /proc/1/comm || kv pid1 "$R"
	[ ! -d /run/systemd/system ] || kv init_systemd 1
	[ ! -e /sbin/openrc ] || kv init_openrc 1
	[ ! -d /etc/init.d ] || kv init_sysv 1
	set -f
	IFS=$NL
	for l in ${ETCHOSTS-}; do
		unset IFS
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- ${l%%#*}
		[ $# -ge 2 ] || continue
		v=$1
		shift
		for w in "$@"; do
			[ "$w" != "$hn" ] || break
		done
		[ "$w" = "$hn" ] || continue
		kv hosts_entry "$v $*"
		break
	done
	unset IFS
	set +f

	if have systemd-detect-virt && [ -n "$VOWN" ]; then
		# systemd 252's: the VM from -v (G_virt) or the files (VMB), the
		# container from the files (virt_container), the tool asked for
		# it only where they do not decide.
		# shellcheck disable=SC2154 # G_*: set by fetch_all
		v=${VMB:-$G_virt}
		virt_container
		c=$VC
		[ -n "$c" ] || c=$(systemd-detect-virt -c 2>/dev/null)
		kv virt "$v"
		kv container "$c"
	elif have systemd-detect-virt; then
		# Exit status 1 with "none" means not virtualised: not an error.
		# Without an option it prints the container if there is one, else
		# the VM (systemd's detect_virtualization): a VM's name or "none"
		# there answers both -v and -c; only a container needs -v too.
		v=$G_virt
		case $v in
		none|kvm|amazon|qemu|bochs|xen|uml|vmware|oracle|microsoft|zvm|\
		parallels|bhyve|qnx|acrn|powervm|apple|sre|google|vm-other)
			c=none ;;
		*)
			c=$v
			v=$(systemd-detect-virt -v 2>/dev/null) ;;
		esac
		kv virt "$v"
		kv container "$c"
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

# ---- virtualization without systemd-detect-virt where its own reads
# decide: each run of it costs ~3.5 ms of CPU (it loads 20 libraries), and a
# container needed two (the container, then -v for the VM under it). Only
# for systemd 252 (Debian 12, RHEL 9), whose src/basic/virt.c these follow
# read for read; a read that cannot be told the same way (a file that is
# there but unreadable, a name outside its table, CPUID, a DMI table)
# leaves the answer to the tool. VOWN: systemd-detect-virt is 252's (its
# shared library's name carries the version; one version installed).
virt_own() {
	VOWN=
	# The tool that runs: the first in PATH (without the fork of a
	# $(command -v)), the distribution's.
	vo_f=
	set -f
	IFS=:
	for vo_d in $PATH; do
		if [ -f "$vo_d/systemd-detect-virt" ] &&
		    [ -x "$vo_d/systemd-detect-virt" ]; then
			vo_f=$vo_d
			break
		fi
	done
	unset IFS
	set +f
	case $vo_f in
	/usr/bin|/bin) ;;
	*) return ;;
	esac
	for vo_f in /usr/lib/*-linux-gnu*/systemd/libsystemd-shared-*.so \
	    /usr/lib/systemd/libsystemd-shared-*.so \
	    /lib/systemd/libsystemd-shared-*.so \
	    /usr/lib64/systemd/libsystemd-shared-*.so; do
		[ -e "$vo_f" ] || continue
		vo_v=${vo_f##*/libsystemd-shared-}
		[ "${vo_v%%[!0-9]*}" = 252 ] || { VOWN=; return; }
		VOWN=1
	done
}

# Set VMB to what systemd 252's `systemd-detect-virt -v` prints where its
# detect_vm() decides before CPUID without a DMI table: User-mode Linux (no
# /sys/class/dmi/id file nor SMBIOS entry, and the first "vendor_id" line
# of /proc/cpuinfo names it); "" otherwise (the tool is asked: -v).
virt_vm() {
	VMB=
	for vm_f in product_name sys_vendor board_vendor bios_vendor \
	    product_version; do
		! [ -e "/sys/class/dmi/id/$vm_f" ] || return 0
	done
	! [ -e /sys/firmware/dmi/entries/0-0/raw ] || return 0
	{ IFS= read -r vm_1 && IFS= read -r vm_2; } </proc/cpuinfo 2>/dev/null ||
	    return 0
	case $vm_1 in
	"vendor_id	: "*) vm_2=$vm_1 ;;
	esac
	case $vm_2 in
	"vendor_id	: User Mode Linux"*) VMB=uml ;;
	esac
}

# Set VC to $1 if it is a container name of systemd 252's table (what
# its translate_name() makes of it), else to "" (undecided: "oci", an
# unknown name, which it calls container-other).
virt_name() {
	case $1 in
	lxc|lxc-libvirt|systemd-nspawn|docker|podman|rkt|wsl|proot|pouch)
		VC=$1 ;;
	*) VC= ;;
	esac
}

# Set VC to what systemd 252's `systemd-detect-virt -c` prints, from the
# files its detect_container() reads, in its order; "" where a read cannot
# decide. PID 1's environment comes from fetch_all's awk (FA_P1: found,
# with the value in FA_C1; absent; or error, which systemd ignores).
virt_container() {
	VC=
	if [ -e /proc/vz ] && ! [ -e /proc/bc ]; then
		VC=openvz
		return
	fi
	if procsys kernel/osrelease; then
		case $R in
		*Microsoft*|*WSL*) VC=wsl; return ;;
		esac
	fi
	# proot: its tracer (fetch_all's awk has the tool's tracer: a tracer
	# of the probe traces its children too).
	status_field TracerPid
	if [ -n "$R" ] && [ "$R" != 0 ] && readline "/proc/$R/comm"; then
		case $R in
		proot*) VC=proot; return ;;
		esac
	fi
	# A file there but empty counts as absent; one that cannot be read
	# is an error of the tool's.
	for vc_f in /run/host/container-manager /run/systemd/container; do
		[ -e "$vc_f" ] || continue
		{ [ -f "$vc_f" ] && [ -r "$vc_f" ]; } || return 0
		readline "$vc_f" || continue
		virt_name "$R"
		return
	done
	case ${FA_P1-} in
	found) virt_name "${FA_C1-}"; return ;;
	absent|error) ;;
	*) return ;;
	esac
	if [ -e /run/.containerenv ]; then
		VC=podman
		return
	fi
	if [ -e /.dockerenv ]; then
		VC=docker
		return
	fi
	# running_in_cgroupns(): not in one where there is no cgroup v2 on
	# /sys/fs/cgroup (FA_CG, from fetch_all's awk) or it has no
	# cgroup.events (the root cgroup); the
	# other cases (a v1 or hybrid tmpfs, a cgroup below the root) are
	# left to the tool.
	[ -e /proc/self/ns/cgroup ] || { VC=none; return; }
	[ -n "${FA_CG+x}" ] || return 0
	case $FA_CG in
	cgroup2) ;;
	tmpfs) return ;;
	*) VC=none; return ;;
	esac
	[ -e /sys/fs/cgroup/cgroup.events ] || VC=none
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
	# Without probe_system (a read-back): the release for /boot's name.
	if [ -z "${release-}" ]; then
		if procsys kernel/osrelease; then release=$R; else release=$(uname -r 2>/dev/null); fi
	fi
	cfg=
	cfgerr=
	bootcfg=/boot/config-$release
	# /proc/config.gz is the running kernel's own config; the /boot file
	# is what a package installed under the same release name.
	if [ -r /proc/config.gz ]; then
		# gzip itself: Debian's zcat is a script that runs it.
		if [ -n "$FA_CFG" ]; then
			:	# cfglines read by fetch_all's awk
		elif have gzip; then
			cfglines=$(gzip -dc /proc/config.gz 2>/dev/null | grep -E "$CFGRE")
		else
			cfglines=$(zcat /proc/config.gz 2>/dev/null | grep -E "$CFGRE")
		fi
		config_take /proc/config.gz "does not decompress to a kernel config"
	elif [ -e /proc/config.gz ]; then
		cfgerr="cannot read /proc/config.gz"
	fi
	if [ -z "$cfg" ] && [ -r "$bootcfg" ]; then
		if [ "${FA_BOOT-}" = "$bootcfg" ]; then
			cfglines=$FA_BOOTLINES	# read by fetch_all's awk
		else
			cfglines=$(grep -E "$CFGRE" "$bootcfg" 2>/dev/null)
		fi
		config_take "$bootcfg" "is not a kernel config (no CONFIG_MODULES line)"
	elif [ -z "$cfg" ] && [ -e "$bootcfg" ]; then
		cfgerr="$cfgerr${cfgerr:+; }cannot read $bootcfg"
	fi
	if [ -n "$cfg" ]; then
		kv source "$cfg"
		set -f
		IFS=$NL
		for l in $cfglines; do
			kv line "$l"
		done
		unset IFS
		set +f
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
		# One ip for the default routes, get4, get6 and every address
		# (t_route), told apart by their first words: the route gets
		# name their address first (after its type, if any), an address
		# line its interface's index ("2:"), a default route "default".
		# shellcheck disable=SC2154
		route_split "$G_route"
		fam=inet
		if [ -z "$routes" ]; then
			routes=$(ip -o -6 route show default 2>/dev/null)
			fam=inet6
		fi
		# The lowest metric wins; ties go to the first listed, like the kernel.
		best=
		bestm=
		set -f
		IFS=$NL
		for l in $routes; do
			unset IFS
			# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
			set -- $l
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
		done
		unset IFS
		set +f
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
	# the source address IPv4 traffic leaves by, as Ansible's
	# default_ipv4 asks the kernel (a route lookup: nothing is sent)
	if [ -z "$ONLY" ] && [ "${fam-}" = inet ] && have ip; then
		kv get4 "$get4"
	fi
	[ -z "${get6-}" ] || kv get6 "$get6"
	DEFIF=$ifc
}

# Split t_route's lines $1 into routes (the default routes), get4, get6
# and ADDRS (`ip -o addr show`'s lines, for Ansible's interface facts).
route_split() {
	routes=
	get4=
	get6=
	ADDRS=
	set -f
	IFS=$NL
	for rs_l in $1; do
		unset IFS
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- $rs_l
		case ${1-}/${2-} in
		8.8.8.8/*|*/8.8.8.8) get4=$rs_l ;;
		"$V6Q"/*|*/"$V6Q") get6=$rs_l ;;
		*:/*)
			case ${1%:} in
			*[!0-9]*) routes="$routes${routes:+$NL}$rs_l" ;;
			*) ADDRS="$ADDRS$rs_l$NL" ;;
			esac ;;
		*) routes="$routes${routes:+$NL}$rs_l" ;;
		esac
	done
	unset IFS
	set +f
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
# targets' and LINKS, each once. With more than one, one `tc qdisc show` of
# every interface (TCALL) serves them all.
probe_links() {
	pl_seen=
	# shellcheck disable=SC2086 # interface names: words
	for pl_if in $DEFIF $VIA $LINKS; do
		case " $pl_seen " in
		*" $pl_if "*) continue ;;
		esac
		pl_seen="$pl_seen $pl_if"
	done
	TCALL=${G_tc-}
	for pl_if in $pl_seen; do
		probe_link "$pl_if"
	done
}

# Set R to what `tc qdisc show dev $1` prints: its lines out of TCALL (each
# "qdisc KIND HANDLE dev $1 ..." without "dev $1 ", and a line that does not
# start a qdisc goes with the one before), else tc's own output for that
# interface (its error for one tc does not know).
tc_of() {
	R=
	to_in=
	set -f
	IFS=$NL
	for to_l in $TCALL; do
		case $to_l in
		"qdisc "*)
			to_k=${to_l#qdisc * dev }
			to_in=
			to_h=${to_l%"$to_k"}
			case $to_k in
			"$1") to_in=1; to_l=${to_h%"dev "} ;;
			"$1 "*) to_in=1; to_l=${to_h%"dev "}${to_k#"$1 "} ;;
			esac ;;
		esac
		[ -z "$to_in" ] || R="$R$to_l$NL"
	done
	unset IFS
	set +f
	[ -n "$R" ] || R=$(tc qdisc show dev "$1" 2>&1)
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
	if have ethtool && link_sysfs "$d"; then
		:
	elif have ethtool; then
		eo=$(ethtool "$ifc" 2>&1)
		ers=$?
		got=
		set -f
		IFS=$NL
		for l in $eo; do
			unset IFS
			squeeze "$l"
			set -f
			case $R in
			Speed:*) kv ethtool_speed "${R#Speed: }"; got=1 ;;
			Duplex:*) kv ethtool_duplex "${R#Duplex: }" ;;
			esac
		done
		unset IFS
		set +f
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
		tc_of "$ifc"
		set -f
		IFS=$NL
		for l in $R; do
			unset IFS
			squeeze "$l"
			case $R in
			qdisc\ *) kv qdisc "$R" ;;
			*) kv tc_error "$R" ;;
			esac
		done
		unset IFS
		set +f
	else
		kv tc_error "tc not installed"
	fi
}

# Print the speed and duplex lines ethtool would print for the interface at
# $1 (/sys/class/net/IF), from sysfs: the same kernel call
# (get_link_ksettings) without a process. Return 1 where sysfs has no answer
# (interface down, a driver without the call: reading fails) or one ethtool
# would print otherwise, so that ethtool itself is asked.
link_sysfs() {
	readline "$1/speed" || return 1
	ls_sp=$R
	readline "$1/duplex" || return 1
	case $ls_sp in
	0|-1|65535|4294967295) ls_sp=Unknown! ;;
	''|*[!0-9]*) return 1 ;;
	*) ls_sp=${ls_sp}Mb/s ;;
	esac
	kv ethtool_speed "$ls_sp"
	case $R in
	full) kv ethtool_duplex Full ;;
	half) kv ethtool_duplex Half ;;
	*) kv ethtool_duplex "Unknown! (255)" ;;
	esac
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

# The sysctls the probe reports (their /proc/sys paths are in PROCSYS too).
SYSCTLS='net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.core.rmem_max
net.core.wmem_max net.core.rmem_default net.core.wmem_default
net.ipv4.tcp_mem net.ipv4.tcp_congestion_control net.core.default_qdisc
net.ipv4.tcp_mtu_probing net.ipv4.tcp_notsent_lowat
net.ipv4.tcp_slow_start_after_idle net.core.netdev_max_backlog'

# ---- current sysctls. Writability is access(2) on the /proc/sys file, which
# for root follows the file mode (0444 for keys read-only in this network
# namespace) and a read-only mount; the mode is reported as well so that an
# unprivileged probe can still tell what root could write.
probe_sysctl() {
	for k in $SYSCTLS; do
		subst "$k" . /
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
		else
			kv present 0
		fi
	done
	section sysctl_modes
	LSLINKS=
	set -f
	IFS=$NL
	# shellcheck disable=SC2154
	for l in $G_ls; do
		case $l in
		l*) LSLINKS="$LSLINKS$l$NL" ;;
		*) kv ls "$l" ;;
		esac
	done
	unset IFS
	set +f
	# The read-only mounts' lines as fetch_all's awk made them (FA_RO:
	# no loop of dash over every mount), else made here.
	if [ -n "${FA_RO+x}" ]; then
		OUT="$OUT$FA_RO"
		return
	fi
	set -f
	IFS=$NL
	for l in ${MOUNTS-}; do
		unset IFS
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- $l
		case $2 in
		/proc/sys|/proc/sys/*)
			case ,$4, in *,ro,*) kv ro_mount "$2" ;; esac ;;
		esac
	done
	unset IFS
	set +f
}

# Set R to the target of link $1: from its `ls -l` line in LSLINKS
# ("... SIZE DATE $1 -> TARGET", taken only when TARGET is SIZE bytes long,
# so a target holding a newline or " -> " is not cut), else readlink's.
link_of() {
	set -f
	IFS=$NL
	for lk_l in $LSLINKS; do
		unset IFS
		case $lk_l in
		*" $1 -> "*) ;;
		*) continue ;;
		esac
		R=${lk_l#*" $1 -> "}
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- $lk_l
		if [ "${#R}" = "$5" ]; then
			set +f
			return
		fi
		break
	done
	unset IFS
	set +f
	R=$(readlink "$1" 2>/dev/null)
}

# ---- sysctl.d files, in priority order; the precedence is computed on the
# controller (lib/remote/sysctld.c). Only blank and comment lines are dropped here.
# File $1 of directory $2, its lines fetched into variable $3.
sysctl_file() {
	section sysctl_file "$1"
	kv dir "$2"
	if [ -L "$1" ]; then
		link_of "$1"
		kv link "$R"
	fi
	if [ ! -r "$1" ]; then
		kv error "cannot read $1"
		return
	fi
	# Its kv lines as fetch_all's awk wrote them (VAR_KV), else made here
	# (dash's trimming of a line is quadratic in its length: 0.5 ms for
	# Debian's sysctl.conf).
	eval "sf_kv=\${${3}_KV+x}"
	if [ -n "$sf_kv" ]; then
		val "${3}_KV"
		OUT="$OUT$R"
		return
	fi
	val "$3"
	set -f
	IFS=$NL
	for l in $R; do
		unset IFS
		l=${l#"${l%%[![:space:]]*}"}
		l=${l%"${l##*[![:space:]]}"}
		case $l in
		''|\#*|\;*) ;;
		*) kv line "$l" ;;
		esac
	done
	unset IFS
	set +f
}

# The sysctl.d directories and files, in order, before anything is printed
# (their files are fetched with the others): SDN entries, entry I being
# SDK_I=f (file SDA_I of directory SDB_I, lines in SF_I) or SDK_I=d
# (directory SDA_I, the same as SDB_I).
sysctld_list() {
	# /lib is /usr/lib on merged-/usr systems: list each directory once.
	# Each is known by its physical path (cd -P sets PWD, no fork; test's
	# -ef is not POSIX); SEEN holds "physical<TAB>dir" lines.
	SDN=0
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
			SDN=$((SDN + 1))
			eval "SDK_$SDN=d SDA_$SDN=\$dir SDB_$SDN=\$dup"
			continue
		fi
		for f in "$dir"/*.conf; do
			[ -e "$f" ] || [ -L "$f" ] || continue
			SDN=$((SDN + 1))
			eval "SDK_$SDN=f SDA_$SDN=\$f SDB_$SDN=\$dir"
		done
	done
	cd "$owd" 2>/dev/null || cd /
}

probe_sysctld() {
	sd_i=1
	while [ "$sd_i" -le "$SDN" ]; do
		val "SDA_$sd_i"
		sd_a=$R
		val "SDB_$sd_i"
		sd_b=$R
		val "SDK_$sd_i"
		if [ "$R" = d ]; then
			section sysctl_dir "$sd_a"
			kv same_as "$sd_b"
		else
			sysctl_file "$sd_a" "$sd_b" "SF_$sd_i"
		fi
		sd_i=$((sd_i + 1))
	done
	# With systemd as PID 1 (sd_booted(): /run/systemd/system), the files
	# are applied at boot by systemd-sysctl, which never reads
	# /etc/sysctl.conf (only through a link in sysctl.d, such as Debian's
	# 99-sysctl.conf); procps' `sysctl --system` reads it last.
	section sysctl_boot
	if [ -d /run/systemd/system ]; then kv systemd 1; else kv systemd 0; fi
	[ -e /etc/sysctl.conf ] && sysctl_file /etc/sysctl.conf "" SYSCTL_CONF
}

# The tools whose output the probe parses, each run by a function t_NAME
# (its output, as $(t_NAME) would hold it, goes to G_NAME): the sysctl
# modes and the sysctl.d links (ls), the default routes and the source
# address (route: one ip for both), every interface's qdiscs (tc: one call
# for all, tc_of takes each interface's lines) and what systemd-detect-virt
# says first (virt). They run in one subshell whose output fetch_all's awk
# reads beside the files, so that each is started by vfork from it, not by a
# fork of the probe's shell per $(...): GATHER lists the ones to run.
gather_list() {
	GATHER='ls'
	if only net; then
		! have ip || GATHER="$GATHER route"
		! have tc || GATHER="$GATHER tc"
	fi
	VOWN=
	VMB=
	if [ -z "$ONLY" ] && have systemd-detect-virt; then
		virt_own
		[ -z "$VOWN" ] || virt_vm
		[ -n "$VMB" ] || GATHER="$GATHER virt"
	fi
	[ -n "$ONLY" ] || GATHER="$GATHER env"
}
# shellcheck disable=SC2317 # called as "t_$go_g"
t_ls() {
	# "exec" ($1): ls replaces the shell (in a $(...) of its own).
	tl_x=${1-}
	set --
	for tl_k in $SYSCTLS; do
		subst "$tl_k" . /
		! [ -e "/proc/sys/$R" ] || set -- "$@" "/proc/sys/$R"
	done
	tl_i=1
	while [ "$tl_i" -le "$SDN" ]; do
		val "SDA_$tl_i"
		case $R in
		*"$NL"*) ;;
		*) ! [ -L "$R" ] || set -- "$@" "$R" ;;
		esac
		tl_i=$((tl_i + 1))
	done
	! [ -L /etc/sysctl.conf ] || set -- "$@" /etc/sysctl.conf
	# shellcheck disable=SC2086 # "" or exec
	[ $# -eq 0 ] || $tl_x ls -lnd "$@" 2>/dev/null
}
# shellcheck disable=SC2317 # called as "t_$go_g"
t_route() {
	# ip -batch ignores an empty line. No -4: the family of `route show`
	# is inet without one, a route get's that of its address, and `addr
	# show` shows both (Ansible's setup asks `ip addr show` of each
	# interface, and `ip -6 route get V6Q`).
	tr_get=
	[ -n "$ONLY" ] || tr_get="route get 8.8.8.8
route get $V6Q
addr show"
	ip -o -force -batch - 2>/dev/null <<EOF
route show default
$tr_get
EOF
}
# shellcheck disable=SC2317 # called as "t_$go_g"
t_tc() {
	tc qdisc show 2>/dev/null
}
# shellcheck disable=SC2317 # called as "t_$go_g"
t_env() {
	# the subshell's exports are the probe's: the environment it was
	# given, PATH and LC_ALL as the prelude set them
	export -p
}
# shellcheck disable=SC2317 # called as "t_$go_g"
t_virt() {
	# shellcheck disable=SC2086 # "" or -v
	systemd-detect-virt ${VOWN:+-v} 2>/dev/null
}

# What fetch_all's awk reads on standard input: each tool's output after a
# line "\001tcptune G_NAME", then the kernel config (fa_cfg).
gather_out() {
	for go_g in $GATHER; do
		printf '\n\001tcptune G_%s\n' "$go_g"
		"t_$go_g"
	done
	[ -z "$fa_cfg" ] || {
		printf '\n\001tcptune cfglines\n'
		gzip -dc /proc/config.gz 2>/dev/null
	}
}

# fetch with one awk where there is one (POSIX has it; the grep above is
# the fallback): each VAR's file read with getline (a file that cannot be
# opened, or is empty, sets nothing), the values printed as sh assignments
# for one eval, the last line FA_OK=1 (output without it is not eval'd).
# Standard input is gather_out's: a line "\001tcptune VAR" starts VAR, whose
# value is the lines up to the next such line without the newlines at its
# end (what $(...) would keep), except cfglines, which gets the lines of
# the kernel config (gzip -dc /proc/config.gz) that match re (CFGRE), as
# probe_config's grep prints them: one process fewer than grep and grep.
# shellcheck disable=SC2016 # an awk program
FETCH_AWK='
function q(s,  r, i) {
	r = ""
	while ((i = index(s, "\047")) > 0) {
		r = r substr(s, 1, i - 1) "\047\\\047\047"
		s = substr(s, i + 1)
	}
	return "\047" r s "\047"
}
# The lines of a sysctl.d file as sysctl_file prints them: blanks trimmed
# at both ends (the [:space:] of the shell), blank and comment lines left
# out, each as "line=VALUE" with a backslash doubled (esc).
function sf_kv(v,  o, l, n, i, j, L) {
	o = ""
	n = split(v, L, "\n")
	for (i = 1; i <= n; i++) {
		l = L[i]
		sub(/^[ \t\n\v\f\r]+/, "", l)
		sub(/[ \t\n\v\f\r]+$/, "", l)
		if (l == "" || l ~ /^[#;]/)
			continue
		o = o "line=" e(l) "\n"
	}
	return o
}
# A line escaped as esc does: a backslash doubled (no newline in a line).
function e(l,  o, j) {
	o = ""
	while ((j = index(l, "\\")) > 0) {
		o = o substr(l, 1, j) "\\"
		l = substr(l, j + 1)
	}
	return o l
}
# The drop-in (dropin) as probe_dropin prints it: every line, and
# no_newline=1 when the last has none (read whole: RS is a byte no text
# holds, a record being everything up to it).
function dropin_kv(  d, r, l, n, i, o, D) {
	RS = "\001"
	d = ""
	n = 0
	while ((r = (getline l < dropin)) > 0)
		d = d (n++ ? "\001" : "") l
	close(dropin)
	RS = "\n"
	if (r < 0)
		return
	n = split(d, D, "\n")
	if (d != "" && substr(d, length(d)) == "\n")
		n--
	o = ""
	for (i = 1; i <= n; i++)
		o = o "line=" e(D[i]) "\n"
	if (d != "" && substr(d, length(d)) != "\n")
		o = o "no_newline=1\n"
	print "FA_DROPIN_KV=" q(o)
}
# The mounts as probe_sysctl and virt_container need them, instead of
# MOUNTS (a lab host of a busy machine has over a hundred, and dash splits
# each): every read-only mount of /proc/sys or below as its kv line
# (FA_RO), and the type of what is mounted on /sys/fs/cgroup (FA_CG, "above"
# where a later mount on /, /sys or /sys/fs hides it).
function mounts_kv(v,  n, i, L, F, ro, cg) {
	ro = ""
	cg = ""
	n = split(v, L, "\n")
	for (i = 1; i <= n; i++) {
		split(L[i], F)
		if ((F[2] == "/proc/sys" || substr(F[2], 1, 10) == "/proc/sys/") &&
		    index("," F[4] ",", ",ro,"))
			ro = ro "ro_mount=" e(F[2]) "\n"
		if (F[2] == "/sys/fs/cgroup")
			cg = F[3]
		else if (F[2] == "/" || F[2] == "/sys" || F[2] == "/sys/fs")
			cg = "above"
	}
	print "FA_RO=" q(ro) "\nFA_CG=" q(cg)
}
# The mounts of the mounts fact of Ansible as probe_host_ansible lists them,
# made here instead of by two dash loops over every mount (FA_MNT): each
# line of tab (/etc/mtab when it is a file, else /proc/self/mounts) with a
# device path or host:/path and a fstype not none as "mount=LINE", then
# each mountinfo line whose root is not / and whose mount point is one of
# those as "bind=POINT" (the [root] of findmnt: a bind mount).
function mnt_kv(tab, info,  n, i, L, F, o, mp) {
	o = ""
	n = split(tab, L, "\n")
	for (i = 1; i <= n; i++) {
		if (split(L[i], F) < 4 || F[3] == "none")
			continue
		if (F[1] ~ /^[\/\\]/ || index(F[1], ":/")) {
			o = o "mount=" e(L[i]) "\n"
			mp[F[2]] = 1
		}
	}
	n = split(info, L, "\n")
	for (i = 1; i <= n; i++)
		if (split(L[i], F) >= 5 && F[4] != "/" && (F[5] in mp))
			o = o "bind=" e(F[5]) "\n"
	print "FA_MNT=" q(o)
}
# The $container of PID 1 as getenv_for_pid() of systemd reads it: the first
# NUL-ended string starting "container=" (FA_P1=found, its value FA_C1),
# FA_P1=absent where there is none, =error where the file cannot be read
# (not permitted: systemd ignores that too); nothing from an awk whose
# strings cannot hold a NUL.
function p1env(  z, r, l) {
	z = sprintf("%c", 0)
	if (length(z) != 1)
		return
	RS = z
	while ((r = (getline l < "/proc/1/environ")) > 0)
		if (substr(l, 1, 10) == "container=")
			break
	close("/proc/1/environ")
	RS = "\n"
	if (r > 0)
		print "FA_P1=found\nFA_C1=" q(substr(l, 11))
	else
		print "FA_P1=" (r < 0 ? "error" : "absent")
}
BEGIN {
	for (i = 1; i + 1 < ARGC; i += 2) {
		f = ARGV[i + 1]
		v = ""
		while ((getline l < f) > 0)
			v = v l "\n"
		close(f)
		if (ARGV[i] == "MOUNTS") {
			mounts_kv(v)
			mounts = v
			continue
		}
		if (ARGV[i] == "MTAB" || ARGV[i] == "MOUNTINFO") {
			M[ARGV[i]] = v
			continue
		}
		if (v != "")
			print ARGV[i] "=" q(v)
		if (v != "" && ARGV[i] ~ /^(SF_[0-9]+|SYSCTL_CONF)$/)
			print ARGV[i] "_KV=" q(sf_kv(v))
		if (ARGV[i] == "PS_kernel_osrelease")
			rel = substr(v, 1, index(v, "\n") - 1)
	}
	# The mounts fact of Ansible: made here where mountinfo was read (a whole
	# probe), else from MOUNTS by the shell.
	if ("MOUNTINFO" in M)
		mnt_kv(M["MTAB"] != "" ? M["MTAB"] : mounts, M["MOUNTINFO"])
	else if (mounts != "")
		print "MOUNTS=" q(mounts)
	if (dropin != "")
		dropin_kv()
	if (p1 != "")
		p1env()
	if (boot && rel != "") {
		f = "/boot/config-" rel
		c = ""
		while ((r = (getline l < f)) > 0)
			if (l ~ re)
				c = c (c == "" ? "" : "\n") l
		close(f)
		if (r == 0)
			print "FA_BOOT=" q(f) "\nFA_BOOTLINES=" q(c)
	}
	ARGC = 1
	mk = sprintf("%ctcptune ", 1)
	ns = 0
	sec = ""
}
index($0, mk) == 1 {
	sec = substr($0, length(mk) + 1)
	name[++ns] = sec
	val[sec] = ""
	next
}
sec == "cfglines" {
	if ($0 ~ re)
		val[sec] = val[sec] (val[sec] == "" ? "" : "\n") $0
	next
}
sec != "" { val[sec] = val[sec] $0 "\n" }
END {
	for (i = 1; i <= ns; i++) {
		v = val[name[i]]
		sub(/\n+$/, "", v)
		print name[i] "=" q(v)
	}
	print "FA_OK=1"
}
'

# Read every file the probe reads whole and run the tools of GATHER, with
# one awk (or grep: fetch, and a $(...) per tool); with awk and gzip, the
# kernel config too (FA_CFG=1, cfglines set).
fetch_all() {
	set --
	for fa_p in $PROCSYS; do
		subst "$fa_p" / _
		set -- "$@" "PS_$R" "/proc/sys/$fa_p"
	done
	fa_osr=/etc/os-release
	[ -r $fa_osr ] || fa_osr=/usr/lib/os-release
	set -- "$@" STATUS /proc/self/status OSR $fa_osr MOUNTS /proc/self/mounts
	! [ -r /etc/debian_version ] || set -- "$@" DEBV /etc/debian_version
	! [ -r /etc/hosts ] || set -- "$@" ETCHOSTS /etc/hosts
	set -- "$@" CPUS /sys/devices/system/cpu/online
	# Ansible's facts' files: /etc/lsb-release, /etc/mtab when it is a
	# file (a link is /proc/mounts'), mountinfo, the local facts that are
	# no program (probe_local counts them the same way)
	if [ -z "$ONLY" ]; then
		! [ -r /etc/lsb-release ] || set -- "$@" LSBR /etc/lsb-release
		! [ -f /etc/mtab ] || [ -L /etc/mtab ] || set -- "$@" MTAB /etc/mtab
		set -- "$@" MOUNTINFO /proc/self/mountinfo
		fa_n=0
		for fa_p in /etc/ansible/facts.d/*.fact; do
			[ -e "$fa_p" ] || continue
			fa_n=$((fa_n + 1))
			[ -x "$fa_p" ] || set -- "$@" "LF_$fa_n" "$fa_p"
		done
	fi
	sysctld_list
	fa_i=1
	while [ "$fa_i" -le "$SDN" ]; do
		val "SDK_$fa_i"
		if [ "$R" = f ]; then
			val "SDA_$fa_i"
			! [ -r "$R" ] || set -- "$@" "SF_$fa_i" "$R"
		fi
		fa_i=$((fa_i + 1))
	done
	! [ -r /etc/sysctl.conf ] || set -- "$@" SYSCTL_CONF /etc/sysctl.conf
	gather_list
	FA_CFG=
	fa_cfg=
	unset FA_BOOT FA_BOOTLINES FA_DROPIN_KV FA_P1 FA_C1 FA_RO FA_CG FA_MNT
	if have awk; then
		fa_n=1
		for fa_p in "$@"; do
			[ $((fa_n % 2)) = 0 ] || unset "$fa_p" "${fa_p}_KV"
			fa_n=$((fa_n + 1))
		done
		! only modules || ! [ -r /proc/config.gz ] || ! have gzip ||
		    fa_cfg=1
		# Without /proc/config.gz (most distributions' kernels), the
		# /boot config's lines too: no grep of its own.
		fa_boot=
		! only modules || [ -n "$fa_cfg" ] || fa_boot=1
		# The drop-in too, where probe_dropin will show it: no read(2)
		# per byte by the read builtin.
		fa_dropin=
		[ -n "$ONLY" ] || [ -z "$DROPIN" ] || ! [ -f "$DROPIN" ] ||
		    ! [ -r "$DROPIN" ] || fa_dropin=$DROPIN
		case $fa_dropin in
		*\\*) fa_dropin= ;;	# awk -v would take it as escapes
		esac
		# A single tool (ls: the read-back of sysctls) runs in a $(...)
		# of its own: two forks with awk's, where the pipeline takes
		# three.
		if [ "$GATHER$fa_cfg" = ls ]; then
			fa_out=$(awk -v re="$CFGRE" -v boot="$fa_boot" -v dropin="$fa_dropin" -v p1="$VOWN" "$FETCH_AWK" "$@" 2>/dev/null </dev/null)
			G_ls=$(t_ls exec)
		else
			fa_out=$(gather_out | awk -v re="$CFGRE" -v boot="$fa_boot" -v dropin="$fa_dropin" -v p1="$VOWN" "$FETCH_AWK" "$@" 2>/dev/null)
		fi
		case $fa_out in
		FA_OK=1|*"${NL}FA_OK=1")
			eval "$fa_out"
			FA_CFG=$fa_cfg
			return ;;
		esac
		fa_cfg=
	fi
	fetch "$@"
	for fa_p in $GATHER; do
		eval "G_$fa_p=\$(t_$fa_p)"
	done
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
	if [ -n "${FA_DROPIN_KV+x}" ]; then
		OUT="$OUT$FA_DROPIN_KV"	# read by fetch_all's awk
		return
	fi
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
# ---- what Ansible's setup module reports beside tcptune's own facts, for
# its fact names (lib/remote/ansible-net.c, ansible-host.c): each
# interface's sysfs files, the addresses (t_route's `ip -o addr show`),
# the environment (t_env: the shell's `export -p`), the package managers
# and lsb_release there are, the local facts and the mounts. No process
# but an executable local fact: files by the read builtin or fetch_all's
# awk, tests and globs by the shell.
# Ansible 2.14's `ip -6 route get` address (network/linux.py).
V6Q=2404:6800:400a:800::1012
# kv_lines KEY TEXT: each line of TEXT (empty ones left out) as KEY=LINE.
kv_lines() {
	set -f
	IFS=$NL
	for kl_l in $2; do
		kv "$1" "$kl_l"
	done
	unset IFS
	set +f
}
probe_ansible() {
	section addrs
	kv_lines line "${ADDRS-}"
	pa_pwd=$PWD
	for pa_d in /sys/class/net/*; do
		[ -d "$pa_d" ] || continue
		section netdev "${pa_d##*/}"
		for pa_f in address mtu operstate type speed flags \
		    bridge/bridge_id bridge/stp_state bonding/slaves \
		    bonding/mode bonding/miimon bonding/lacp_rate \
		    bonding/primary bonding/all_slaves_active \
		    bonding_slave/perm_hwaddr; do
			[ -e "$pa_d/$pa_f" ] || continue
			subst "$pa_f" / _
			pa_k=$R
			# a file that cannot be read (the speed of a link that
			# is down) is left out: get_file_content's default
			readline "$pa_d/$pa_f" && kv "$pa_k" "$R"
		done
		[ ! -d "$pa_d/bridge" ] || kv bridge 1
		if [ -d "$pa_d/bridge" ]; then
			for pa_f in "$pa_d"/brif/*; do
				[ -e "$pa_f" ] && kv brif "${pa_f##*/}"
			done
		fi
		[ ! -d "$pa_d/bonding" ] || kv bonding 1
		# realpath's last part, by cd -P (no readlink process)
		! [ -e "$pa_d/device" ] || ! cd -P "$pa_d/device" 2>/dev/null ||
		    kv pciid "${PWD##*/}"
		! [ -e "$pa_d/device/driver/module" ] ||
		    ! cd -P "$pa_d/device/driver/module" 2>/dev/null ||
		    kv module "${PWD##*/}"
	done
	cd "$pa_pwd" 2>/dev/null || cd /
	probe_host_ansible
}

# PKG_MGRS of Ansible's system/pkg_mgr.py, in its order.
PKGMGRS='/usr/bin/rpm-ostree /usr/bin/yum /usr/bin/dnf /usr/bin/apt-get
/usr/bin/zypper /usr/sbin/urpmi /usr/bin/pacman /bin/opkg /usr/pkg/bin/pkgin
/opt/local/bin/pkgin /opt/tools/bin/pkgin /opt/local/bin/port
/usr/local/bin/brew /opt/homebrew/bin/brew /sbin/apk /usr/sbin/pkg
/usr/sbin/swlist /usr/bin/emerge /usr/sbin/pkgadd /usr/bin/pkg
/usr/bin/xbps-install /usr/local/sbin/pkg /usr/bin/swupd /usr/sbin/sorcery
/usr/bin/installp /QOpenSys/pkgs/bin/yum'

probe_host_ansible() {
	section host
	# shellcheck disable=SC2154 # G_env: set by fetch_all
	kv_lines env "${G_env-}"
	# what the prelude changed: the PATH before, LC_ALL's value
	kv env_path "${TT_PATH0-}"
	kv env_lc_all "${TT_LC_ALL0-}"
	kv env_oldpwd "${TT_OLDPWD0-}"
	ph_mp=
	for l in $PKGMGRS /run/ostree-booted /usr/bin/rpm; do
		[ ! -e "$l" ] || kv pkg "$l"
	done
	! have lsb_release || kv lsb_release 1
	kv_lines lsb "${LSBR-}"
	# the mounts setup lists (a device path or host:/path, fstype not
	# none) and the ones findmnt shows with a [root] (bind mounts): a
	# root that is not / in mountinfo; made by fetch_all's awk (FA_MNT)
	# where it ran, as mnt_kv there
	if [ -n "${FA_MNT+x}" ]; then
		OUT="$OUT$FA_MNT"
		probe_local
		return
	fi
	set -f
	IFS=$NL
	for l in ${MTAB-${MOUNTS-}}; do
		unset IFS
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- $l
		[ $# -ge 4 ] || continue
		[ "$3" != none ] || continue
		case $1 in
		/*|\\*|*:/*) kv mount "$l"; ph_mp="$ph_mp $2 " ;;
		esac
	done
	IFS=$NL
	for l in ${MOUNTINFO-}; do
		unset IFS
		# shellcheck disable=SC2086 # split on blanks on purpose, globbing off
		set -- $l
		[ $# -ge 5 ] || continue
		[ "$4" != / ] || continue
		case $ph_mp in
		*" $5 "*) kv bind "$5" ;;
		esac
	done
	unset IFS
	set +f
	probe_local
}

# The local facts (/etc/ansible/facts.d/*.fact, setup's fact_path): a file
# as fetch_all's awk read it (LF_N), an executable one's output and status.
probe_local() {
	[ -d /etc/ansible/facts.d ] || return 0
	section local
	kv dir 1
	pl_n=0
	for pl_f in /etc/ansible/facts.d/*.fact; do
		[ -e "$pl_f" ] || continue
		pl_n=$((pl_n + 1))
		section local_fact "$pl_f"
		if [ -x "$pl_f" ]; then
			pl_o=$("$pl_f" 2>/dev/null)
			kv rc $?
		else
			val "LF_$pl_n"
			pl_o=$R
		fi
		kv_lines line "$pl_o"
	done
}

# Whether ONLY asks for $1 (everything when it is empty).
only() {
	case " ${ONLY:-net modules} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}
# The RTT targets become the arguments (TARGETS holds them as sh words).
eval "set -- $TARGETS"
OUT="tcptune-probe 1$NL"
fetch_all
probe_self
OUT="${OUT}args=$#$NL"
[ -n "$ONLY" ] || probe_system
only modules && probe_config
if only net; then
	probe_congestion
	probe_route
	probe_routes "$@"
	probe_links
fi
[ -n "$ONLY" ] || probe_ansible
[ -n "$ONLY" ] || probe_memory
probe_sysctl
probe_sysctld
if [ -z "$ONLY" ]; then
	probe_dropin
	probe_tuned
	out_flush
	for t in "$@"; do
		rtt_one "$t" &
	done
	wait
fi
out_flush
printf '@end\n'
exit 0
