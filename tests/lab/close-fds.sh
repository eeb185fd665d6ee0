# shellcheck shell=bash
# close_inherited_fds: close every descriptor above 2 that this bash script
# inherited. A lab outlives the command that starts it: its processes
# (namespace holders, sshd, wanem) must not keep a descriptor the caller
# holds, or `flock LOCK lab.sh up` would keep LOCK locked until `down`.
# Bash reads the running script from fd 255: that one stays. Sourced by
# lab.sh and regions.sh.
#
# No redirection around the loop: bash keeps a redirected fd's original in a
# descriptor of 10 or more while the loop runs, the loop closed that one too,
# and stderr stayed /dev/null for the rest of the script (every die of
# lab.sh and regions.sh said nothing: "regions.sh up failed:" and no why).
# The glob's own directory descriptor is gone when the loop runs: only what
# is still open is closed.
close_inherited_fds() {
	local f fd
	for f in "/proc/$$/fd/"*; do
		fd=${f##*/}
		if ((fd > 2 && fd < 255)) && [[ -e $f ]]; then
			eval "exec $fd>&-"
		fi
	done
}
