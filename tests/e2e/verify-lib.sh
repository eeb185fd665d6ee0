# shellcheck shell=bash
# verify-lib.sh - a two-host lab joined by the WAN emulator, for the
# iperf3_verify end-to-end tests (tests/e2e/verify-*.sh). Source after
# lib.sh:
#
#   wan_lab_up PREFIX NET WANEM   e2e_lab_up 2 PREFIX NET, then wanem
#                                 between lab01 and lab02: 52 ms each way,
#                                 100 Mbit/s, a one-BDP queue (the config is
#                                 written to $E2E_TMP/wan.conf), stopped on
#                                 exit. Writes $WAN_INVENTORY: the lab's
#                                 inventory plus iperf_peer (each host the
#                                 other's) and iperf_address 198.19.0.N.
#   vt ARGS...                    tcptune against that inventory
#   iperf_pids                    iperf3 processes left in the lab's
#                                 namespaces (there must be none)
#
# The lab sets stock buffers (tcp_rmem/tcp_wmem max 212992, reno) and
# tcp_no_metrics_save=1 in each namespace (lab.sh up).

WAN_DIR=
WAN_INVENTORY=

verify_cleanup() {
	if [[ -n $WAN_DIR ]]; then
		"$E2E_SRC/tests/lab/wan.sh" down -d "$WAN_DIR" >/dev/null 2>&1 ||
		    true
	fi
	e2e_cleanup
}

# wan_up WANEM: wan.sh up with $E2E_TMP/wan.conf into $WAN_DIR, or fail.
wan_up() {
	if ! WANEM=$1 "$E2E_SRC/tests/lab/wan.sh" up "$E2E_TMP/wan.conf" \
	    -d "$WAN_DIR" >"$E2E_TMP/wan-up.log" 2>&1; then
		echo "FAIL: wan.sh up failed:"
		sed 's/^/    /' "$E2E_TMP/wan-up.log"
		exit 1
	fi
}

# wan_lab_start WANEM LINE, after e2e_lab_up: host i's WAN address is
# 198.19.0.i, and wanem joins the hosts as LINE (after the host lines) says.
wan_lab_start() {
	local wanem=$1 line=$2 i=0 h
	trap verify_cleanup EXIT
	WAN_DIR=$E2E_TMP/wan
	read -r -a NETNS <<<"$LAB_NETNS"
	{
		echo "# written by tests/e2e/verify-lib.sh"
		for h in "${HOSTS[@]}"; do
			echo "host $h ${NETNS[$i]} 198.19.0.$((i + 1))"
			i=$((i + 1))
		done
		echo "$line"
	} >"$E2E_TMP/wan.conf"
	wan_up "$wanem"
}

wan_lab_up() {
	local prefix=$1 net=$2 wanem=$3
	e2e_lab_up 2 "$prefix" "$net"
	wan_lab_start "$wanem" \
	    "link ${HOSTS[0]} ${HOSTS[1]} delay=52ms rate=100mbit queue=bdp"
	e2e_log "$(tail -n 1 "$E2E_TMP/wan-up.log")"
	# The lab's YAML inventory with the pairing vars under each host.
	WAN_INVENTORY=$E2E_TMP/wan-inventory.yml
	awk -v h1="${HOSTS[0]}" -v h2="${HOSTS[1]}" '
	    { print }
	    $1 == h1 ":" { want = h2; addr = "198.19.0.1"; next }
	    $1 == h2 ":" { want = h1; addr = "198.19.0.2"; next }
	    want != "" && $1 == "ansible_host:" {
		ind = substr($0, 1, index($0, "a") - 1)
		print ind "iperf_peer: " want
		print ind "iperf_address: " addr
		want = ""
	    }' "$LAB_INVENTORY" >"$WAN_INVENTORY"
	grep -q 'iperf_address: 198.19.0.2' "$WAN_INVENTORY" || {
		echo "FAIL: could not write the pairing inventory:"
		sed 's/^/    /' "$WAN_INVENTORY"
		exit 1
	}
}

vt() {
	"$TCPTUNE" "$@" -i "$WAN_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" \
	    --no-color
}

# e2e_run with vt (timeout(1) cannot run a function).
vt_run() {
	local secs=$1
	shift
	e2e_run "$secs" "$TCPTUNE" "$@" -i "$WAN_INVENTORY" \
	    --known-hosts "$LAB_KNOWN_HOSTS" --no-color
}

iperf_pids() {
	local ns pid
	for ns in $LAB_NETNS; do
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			[[ $(cat "/proc/$pid/comm" 2>/dev/null) == iperf3 ]] &&
			    echo "$pid"
		done
	done
	return 0
}

# lab_sysctl HOST KEY: the live value, tabs squeezed to spaces.
lab_sysctl() {
	lab "$1" sysctl -n "$2" | tr -s ' \t' '  '
}

# fleet_wan_lab_up N PREFIX NET WANEM PATH-OPTIONS: e2e_lab_up N PREFIX NET,
# then wanem with one `default PATH-OPTIONS` path between every two hosts
# (config in $E2E_TMP/wan.conf), stopped on exit. Writes $WAN_INVENTORY:
# the lab's inventory plus iperf_address 198.19.0.N per host (no peers:
# the playbook says them).
fleet_wan_lab_up() {
	local n=$1 prefix=$2 net=$3 wanem=$4 opts=$5
	e2e_lab_up "$n" "$prefix" "$net"
	wan_lab_start "$wanem" "default $opts"
	WAN_INVENTORY=$E2E_TMP/wan-inventory.yml
	awk '
	    { print }
	    /^        lab[0-9]+:$/ { n = substr($1, 4, length($1) - 4) + 0 }
	    n > 0 && $1 == "ansible_host:" {
		ind = substr($0, 1, index($0, "a") - 1)
		print ind "iperf_address: 198.19.0." n
		n = 0
	    }' "$LAB_INVENTORY" >"$WAN_INVENTORY"
	[[ $(grep -c 'iperf_address: 198.19.0.' "$WAN_INVENTORY") == "$n" ]] || {
		echo "FAIL: could not write the addresses into the inventory:"
		sed 's/^/    /' "$WAN_INVENTORY"
		exit 1
	}
}
