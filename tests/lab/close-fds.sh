# shellcheck shell=bash
# close_inherited_fds: close every descriptor above 2 that this bash script
# inherited. A lab outlives the command that starts it: its processes
# (namespace holders, sshd, wanem) must not keep a descriptor the caller
# holds, or `flock LOCK lab.sh up` would keep LOCK locked until `down`.
# Bash reads the running script from fd 255: that one stays. Sourced by
# lab.sh and regions.sh.
close_inherited_fds() {
	local f fd
	for f in "/proc/$$/fd/"*; do
		fd=${f##*/}
		if ((fd > 2 && fd < 255)); then
			eval "exec $fd>&-"
		fi
	done 2>/dev/null
}
