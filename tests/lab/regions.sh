#!/bin/bash
# regions.sh - a multi-region lab: ten lab hosts (tests/lab/lab.sh) in four
# "regions" joined by the WAN emulator (tests/lab/wan.sh) with a delay and a
# rate per region pair, and an inventory with one group per region whose
# hosts peer with the other regions (iperf_peers). See tests/lab/README.md,
# "Multi-region lab".
#
#   regions.sh up [-d DIR] [-p PREFIX] [-a NET] [-w WANEM]
#   regions.sh down [-d DIR]
#   regions.sh env [-d DIR]      print the path of DIR/regions.env
#
# Must run as root (lab.sh and wan.sh do). Everything it writes is in DIR.

set -euo pipefail

PROG=regions.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFAULT_DIR=/tmp/tcptune-regions
DEFAULT_PREFIX=trg
DEFAULT_NET=198.18.90

# The regions: name, its hosts, and the bandwidth (Mbit/s) the inventory
# gives the paths to its hosts (bandwidth_mbit_by_group).
REGIONS=(eu uk ca asia)
declare -A REGION_HOSTS=(
	[eu]="eu1 eu2 eu3"
	[uk]="uk1 uk2"
	[ca]="ca1 ca2 ca3"
	[asia]="asia1 asia2"
)
declare -A REGION_MBIT=([eu]=200 [uk]=150 [ca]=150 [asia]=100)
# One-way delay in ms between two regions (either order) and inside one.
# The rate of a pair is the smaller of the two regions' bandwidths: each
# region reaches the others through its own uplink.
INSIDE_MS=0.5
declare -A DELAY_MS=(
	[eu:uk]=20
	[eu:ca]=45
	[uk:ca]=45
	[eu:asia]=120
	[uk:asia]=120
	[ca:asia]=120
)

die() {
	echo "$PROG: $*" >&2
	exit 1
}

usage() {
	cat >&2 <<EOF
usage: $PROG up [-d DIR] [-p PREFIX] [-a NET] [-w WANEM]
       $PROG down [-d DIR]
       $PROG env [-d DIR]
defaults: DIR=\${REGIONS_DIR:-$DEFAULT_DIR} PREFIX=$DEFAULT_PREFIX NET=$DEFAULT_NET
EOF
	exit 2
}

# delay A B: the one-way delay between regions A and B, in ms.
delay() {
	if [[ $1 == "$2" ]]; then
		echo "$INSIDE_MS"
	elif [[ -n ${DELAY_MS[$1:$2]:-} ]]; then
		echo "${DELAY_MS[$1:$2]}"
	else
		echo "${DELAY_MS[$2:$1]}"
	fi
}

# rate A B: the rate of the pipe between regions A and B, in Mbit/s.
rate() {
	local a=${REGION_MBIT[$1]} b=${REGION_MBIT[$2]}
	echo $((a < b ? a : b))
}

# The hosts in order, with their region: fills NAMES and REGION_OF.
plan_hosts() {
	local r h
	NAMES=()
	declare -gA REGION_OF=()
	for r in "${REGIONS[@]}"; do
		for h in ${REGION_HOSTS[$r]}; do
			NAMES+=("$h")
			REGION_OF[$h]=$r
		done
	done
}

# The next host of h's own region (a ring): its iperf_peer inside the
# region, so every region also has its short paths measured.
next_in_region() {
	local h=$1 i
	local -a hs
	read -r -a hs <<<"${REGION_HOSTS[${REGION_OF[$h]}]}"
	for i in "${!hs[@]}"; do
		if [[ ${hs[$i]} == "$h" ]]; then
			echo "${hs[$(((i + 1) % ${#hs[@]}))]}"
			return
		fi
	done
}

write_wan_conf() {
	local i j a b ra rb
	{
		echo "# written by $PROG: ${#NAMES[@]} hosts in ${#REGIONS[@]} regions"
		for i in "${!NAMES[@]}"; do
			echo "host ${NAMES[$i]} ${NETNS[$i]} ${WAN_ADDRS[$i]}"
		done
		for ((i = 0; i < ${#NAMES[@]}; i++)); do
			for ((j = i + 1; j < ${#NAMES[@]}; j++)); do
				a=${NAMES[$i]}
				b=${NAMES[$j]}
				ra=${REGION_OF[$a]}
				rb=${REGION_OF[$b]}
				echo "link $a $b delay=$(delay "$ra" "$rb")ms" \
				    "rate=$(rate "$ra" "$rb")mbit queue=bdp"
			done
		done
	} >"$DIR/wan.conf"
}

write_inventory() {
	local r h i peers o
	# shellcheck disable=SC2153 # LAB_* come from lab.env
	local common="-o UserKnownHostsFile=$LAB_KNOWN_HOSTS -o StrictHostKeyChecking=yes -o KexAlgorithms=curve25519-sha256"
	{
		echo "# multi-region lab inventory (written by $PROG)"
		echo "all:"
		echo "  vars:"
		echo "    ansible_user: root"
		echo "    ansible_ssh_private_key_file: $LAB_KEY"
		echo "    ansible_ssh_common_args: \"$common\""
		echo "    bandwidth_mbit_by_group:"
		for r in "${REGIONS[@]}"; do
			echo "      region_$r: ${REGION_MBIT[$r]}"
		done
		echo "  children:"
		echo "    regions:"
		echo "      children:"
		for r in "${REGIONS[@]}"; do
			echo "        region_$r:"
			echo "          hosts:"
			for h in ${REGION_HOSTS[$r]}; do
				for i in "${!NAMES[@]}"; do
					[[ ${NAMES[$i]} == "$h" ]] && break
				done
				echo "            $h:"
				echo "              ansible_host: ${SSH_ADDRS[$i]}"
				echo "              iperf_address: ${WAN_ADDRS[$i]}"
				echo "              iperf_peer: $(next_in_region "$h")"
			done
			peers=
			for o in "${REGIONS[@]}"; do
				[[ $o == "$r" ]] || peers+="${peers:+, }region_$o"
			done
			echo "          vars:"
			echo "            iperf_peers: [$peers]"
		done
	} >"$DIR/inventory.yml"
}

# "a", "b": the words of $1 as JSON strings.
quoted_list() {
	local w out=
	for w in $1; do
		out+="${out:+, }\"$w\""
	done
	echo "$out"
}

# The layout for other tests: regions.json (hosts, regions, the matrix)
# and paths.tsv (one line per ordered host pair).
write_layout() {
	local i j a b ra rb first=1
	{
		printf 'src\tdst\tsrc_group\tdst_group\tdelay_ms\trtt_ms\trate_mbit\n'
		for i in "${!NAMES[@]}"; do
			for j in "${!NAMES[@]}"; do
				[[ $i != "$j" ]] || continue
				a=${NAMES[$i]}
				b=${NAMES[$j]}
				ra=${REGION_OF[$a]}
				rb=${REGION_OF[$b]}
				printf '%s\t%s\tregion_%s\tregion_%s\t%s\t%s\t%s\n' \
				    "$a" "$b" "$ra" "$rb" "$(delay "$ra" "$rb")" \
				    "$(awk -v d="$(delay "$ra" "$rb")" \
				    'BEGIN { print 2 * d }')" "$(rate "$ra" "$rb")"
			done
		done
	} >"$DIR/paths.tsv"
	{
		echo "{"
		echo "  \"inventory\": \"$DIR/inventory.yml\","
		echo "  \"known_hosts\": \"$LAB_KNOWN_HOSTS\","
		echo "  \"hosts\": ["
		for i in "${!NAMES[@]}"; do
			a=${NAMES[$i]}
			printf '    {"name": "%s", "group": "region_%s", "region": "%s", "lab_host": "%s", "netns": "%s", "ssh_address": "%s", "wan_address": "%s"}%s\n' \
			    "$a" "${REGION_OF[$a]}" "${REGION_OF[$a]}" \
			    "${LABS[$i]}" "${NETNS[$i]}" "${SSH_ADDRS[$i]}" \
			    "${WAN_ADDRS[$i]}" \
			    "$( ((i + 1 < ${#NAMES[@]})) && echo ,)"
		done
		echo "  ],"
		echo "  \"groups\": {"
		for i in "${!REGIONS[@]}"; do
			ra=${REGIONS[$i]}
			printf '    "region_%s": {"bandwidth_mbit": %s, "hosts": [%s]}%s\n' \
			    "$ra" "${REGION_MBIT[$ra]}" \
			    "$(quoted_list "${REGION_HOSTS[$ra]}")" \
			    "$( ((i + 1 < ${#REGIONS[@]})) && echo ,)"
		done
		echo "  },"
		echo "  \"matrix\": ["
		for ra in "${REGIONS[@]}"; do
			for rb in "${REGIONS[@]}"; do
				((first)) || echo ","
				first=0
				printf '    {"src_group": "region_%s", "dst_group": "region_%s", "delay_ms": %s, "rtt_ms": %s, "rate_mbit": %s}' \
				    "$ra" "$rb" "$(delay "$ra" "$rb")" \
				    "$(awk -v d="$(delay "$ra" "$rb")" \
				    'BEGIN { print 2 * d }')" "$(rate "$ra" "$rb")"
			done
		done
		echo
		echo "  ]"
		echo "}"
	} >"$DIR/regions.json"
}

write_env() {
	q() { printf '%s=%q\n' "$1" "$2"; }
	local groups=() r
	for r in "${REGIONS[@]}"; do
		groups+=("region_$r")
	done
	{
		echo "# multi-region lab environment (written by $PROG): . $DIR/regions.env"
		q REGIONS_DIR "$DIR"
		q REGIONS_INVENTORY "$DIR/inventory.yml"
		q REGIONS_KNOWN_HOSTS "$LAB_KNOWN_HOSTS"
		q REGIONS_HOSTS "${NAMES[*]}"
		q REGIONS_GROUPS "${groups[*]}"
		q REGIONS_LAB_HOSTS "${LABS[*]}"
		q REGIONS_NETNS "${NETNS[*]}"
		q REGIONS_WAN_ADDRS "${WAN_ADDRS[*]}"
		q REGIONS_JSON "$DIR/regions.json"
		q REGIONS_PATHS "$DIR/paths.tsv"
		q REGIONS_WAN_CONF "$DIR/wan.conf"
		q REGIONS_WAN_DIR "$DIR/wan"
		q REGIONS_LAB_ENV "$DIR/lab/lab.env"
		q REGIONS_SH "$HERE/$PROG"
	} >"$DIR/regions.env"
}

# shellcheck source=tests/lab/close-fds.sh
. "$HERE/close-fds.sh"

cmd_up() {
	local i t0=$SECONDS
	close_inherited_fds
	plan_hosts
	mkdir -p "$DIR"
	# A wanem of an earlier up goes first: its wan0 devices would make
	# wan.sh refuse, and lab.sh up may rebuild the namespaces.
	"$HERE/wan.sh" down -d "$DIR/wan" >/dev/null
	"$HERE/lab.sh" up -n "${#NAMES[@]}" -d "$DIR/lab" -p "$PREFIX" \
	    -a "$NET" >"$DIR/lab-up.log" 2>&1 ||
		die "lab.sh up failed: $(tail -n 5 "$DIR/lab-up.log")"
	# shellcheck disable=SC1091
	. "$DIR/lab/lab.env"
	read -r -a LABS <<<"$LAB_HOSTS"
	read -r -a NETNS <<<"$LAB_NETNS"
	# shellcheck disable=SC2153 # from lab.env
	read -r -a SSH_ADDRS <<<"$LAB_ADDRS"
	((${#LABS[@]} == ${#NAMES[@]})) ||
		die "the lab has ${#LABS[@]} hosts, not ${#NAMES[@]}"
	WAN_ADDRS=()
	for i in "${!NAMES[@]}"; do
		WAN_ADDRS+=("198.19.0.$((i + 1))")
	done
	write_wan_conf
	if [[ -n $WANEM_BIN ]]; then
		export WANEM=$WANEM_BIN
	fi
	"$HERE/wan.sh" up "$DIR/wan.conf" -d "$DIR/wan" >"$DIR/wan-up.log" 2>&1 ||
		die "wan.sh up failed: $(tail -n 5 "$DIR/wan-up.log")"
	write_inventory
	write_layout
	write_env
	echo "$PROG: ${#NAMES[@]} hosts in ${#REGIONS[@]} regions up in $DIR" \
	    "($((SECONDS - t0))s); . $DIR/regions.env"
}

cmd_down() {
	"$HERE/wan.sh" down -d "$DIR/wan" >/dev/null
	"$HERE/lab.sh" down -d "$DIR/lab" >/dev/null
	rm -f "$DIR/regions.env" "$DIR/regions.json" "$DIR/paths.tsv" \
	    "$DIR/inventory.yml" "$DIR/wan.conf"
	echo "$PROG: regions in $DIR are down"
}

[[ $# -ge 1 ]] || usage
CMD=$1
shift
DIR=${REGIONS_DIR:-$DEFAULT_DIR}
PREFIX=$DEFAULT_PREFIX
NET=$DEFAULT_NET
WANEM_BIN=
while getopts d:p:a:w: opt; do
	case $opt in
	d) DIR=$OPTARG ;;
	p) PREFIX=$OPTARG ;;
	a) NET=$OPTARG ;;
	w) WANEM_BIN=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 ]] || usage
DIR=$(readlink -m "$DIR")

case $CMD in
up) [[ $(id -u) -eq 0 ]] || die "must run as root"; cmd_up ;;
down) [[ $(id -u) -eq 0 ]] || die "must run as root"; cmd_down ;;
env)
	[[ -f $DIR/regions.env ]] || die "no regions lab in $DIR"
	echo "$DIR/regions.env"
	;;
*) usage ;;
esac
