#!/bin/bash
# guests-smoke.sh - the real-kernel lab works: two User-mode Linux guests
# (tests/guests/guests.sh) come up with strict host keys from the first
# connection; tcptune ping and probe reach them through the normal CLI as
# the non-root user with become; the probe's facts match the guest's own
# commands exactly (a stock Debian VM: kernel release, cubic, fq_codel root
# qdisc, rmem_max 212992, /boot/config; then the first guest changed three
# times: config, modules, qdiscs and sysctl.d files against zcat, modprobe,
# tc and systemd-sysctl); a reboot comes back; down leaves nothing.
# Prints the figures (image, boot, reboot, memory per guest).
#
# Usage: guests-smoke.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-smoke "${1:-}"

GUESTS=$E2E_SRC/tests/guests/guests.sh
GDIR=/tmp/tcptune-e2e-guests
# shellcheck disable=SC2317 # called by the EXIT trap
guests_cleanup() {
	if [[ ${KEEP_LAB:-0} != 1 ]]; then
		"$GUESTS" down -d "$GDIR" >/dev/null 2>&1 || true
	fi
	e2e_cleanup
}
trap guests_cleanup EXIT

if ! out=$("$GUESTS" check 2>&1); then
	echo "FAIL: User-mode Linux guests cannot run here: $out"
	exit 1
fi
e2e_log "$out"

# guest HOST CMD... : run CMD as root in a guest (guests.sh exec).
guest() {
	"$GUESTS" exec -d "$GDIR" "$@"
}

secs_since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

t0=$(now)
if ! img=$("$GUESTS" image 2>"$E2E_TMP/image.log"); then
	echo "FAIL: guests.sh image failed:"
	sed 's/^/    /' "$E2E_TMP/image.log"
	exit 1
fi
e2e_log "figure: image $img ready in $(secs_since "$t0") s ($(grep -q 'built in' "$E2E_TMP/image.log" && echo built || echo cached))"

t0=$(now)
if ! "$GUESTS" up -n 2 -d "$GDIR" -p tgs -a 198.18.211 >"$E2E_TMP/up.log" 2>&1; then
	echo "FAIL: guests.sh up -n 2 failed:"
	sed 's/^/    /' "$E2E_TMP/up.log"
	exit 1
fi
e2e_log "figure: 2 guests up (boot to sshd) in $(secs_since "$t0") s"
# shellcheck disable=SC1091
. "$GDIR/lab.env"
read -r -a HOSTS <<<"$LAB_HOSTS"
read -r -a ADDRS <<<"$LAB_ADDRS"

assert_eq "inventory: the non-root user with become" \
    "ansible_user: tcptune|ansible_become: true" \
    "$(grep -oE 'ansible_(user|become): .*' "$LAB_INVENTORY" | paste -sd'|')"
assert_eq "known_hosts: one exact ed25519 key per guest" "2" \
    "$(grep -cE '^198\.18\.211\.1[12] ssh-ed25519 [A-Za-z0-9+/=]+$' "$LAB_KNOWN_HOSTS")"

e2e_run 60 tt ping
assert_rc "ping (tcptune as tcptune, become, strict host keys) exits 0" 0
assert_eq "ping: 2 'ok:' lines" 2 "$(grep -c '^ok: \[' <<<"$RUN_OUT")"

# Strict host key checking: a guest whose key is not known is refused.
: >"$E2E_TMP/empty_known_hosts"
e2e_run 60 "$TCPTUNE" ping -i "$LAB_INVENTORY" --known-hosts \
    "$E2E_TMP/empty_known_hosts" --no-color -l "${HOSTS[0]}"
assert_rc_bit "ping with an empty known_hosts: unreachable" 4

# ---- The probe's facts against the guest's own commands (issue 13,
# "probe on a real kernel"), exactly: the kernel config (where found, and
# each option's y/m/absent against zcat/grep), each module's state
# (builtin/loaded/loadable/absent against modules.builtin, /sys/module and a
# real modprobe), the link speed against ethtool, the live qdiscs (root and
# children) against `tc -j qdisc show`, every probed key's winning sysctl.d
# file and value against `systemd-sysctl --cat-config`, the order the files
# apply in, and the live values against sysctl. On the stock guests first,
# then on the first guest changed three times (/proc/config.gz, sch_fq
# loaded, an fq root, sysctl.d files in every directory; then the config
# hidden by a bind mount of /dev/null, the sch_fq module file hidden, a prio
# root with children, /etc/sysctl.conf without Debian's 99-sysctl.conf link;
# then all undone).

PROBE_KEYS="net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.core.rmem_max
net.core.wmem_max net.core.rmem_default net.core.wmem_default net.ipv4.tcp_mem
net.ipv4.tcp_congestion_control net.core.default_qdisc net.ipv4.tcp_mtu_probing
net.ipv4.tcp_notsent_lowat net.ipv4.tcp_slow_start_after_idle net.core.netdev_max_backlog"

# The guest's own answers, as KEY=VALUE lines (run as root in the guest).
# A module is tried for real with modprobe (and removed again), so this
# runs after the probe.
TRUTH_SH=$(cat <<'EOF'
rel=$(uname -r)
if [ -r /proc/config.gz ]; then
	src=/proc/config.gz; zcat /proc/config.gz >/run/tgs-cfg
elif grep -qE '^(# )?CONFIG_MODULES[= ]' "/boot/config-$rel" 2>/dev/null; then
	src=/boot/config-$rel; cat "$src" >/run/tgs-cfg
else
	src=none; : >/run/tgs-cfg
fi
echo "config.source=$src"
for o in CONFIG_MODULES CONFIG_TCP_CONG_BBR CONFIG_NET_SCH_FQ CONFIG_NET_SCH_FQ_CODEL; do
	v=$(grep "^$o=" /run/tgs-cfg | cut -d= -f2)
	case $src:$v in none:*) v=unknown ;; *:y|*:m) ;; *) v=absent ;; esac
	echo "config.$o=$v"
done
rm -f /run/tgs-cfg
for m in tcp_bbr sch_fq sch_fq_codel; do
	if grep -qE "(^|/)$m\.ko" "/lib/modules/$rel/modules.builtin"; then s=builtin
	elif [ -d "/sys/module/$m" ]; then s=loaded
	elif modprobe "$m" 2>/dev/null; then s=loadable; rmmod "$m"
	else s=absent
	fi
	echo "module.$m=$s"
done
e=$(ethtool eth0 2>/dev/null)
echo "ethtool.speed=$(awk '/Speed:/ { sub(/Mb\/s/, "", $2); print $2 }' <<<"$e")"
echo "ethtool.speed_lines=$(grep -c 'Speed:' <<<"$e")"
echo "tc.json=$(tc -j qdisc show dev eth0)"
/lib/systemd/systemd-sysctl --cat-config | awk -v keys="$*" '
	/^# \/[^ ]+$/ { f = substr($0, 3); order = order (order == "" ? "" : " ") f; next }
	/^[#;]/ || !/=/ { next }
	{ k = $0; sub(/=.*/, "", k); gsub(/^[ \t-]+|[ \t]+$/, "", k)
	  v = $0; sub(/^[^=]*=/, "", v); gsub(/^[ \t]+|[ \t]+$/, "", v)
	  file[k] = f; val[k] = v }
	END { print "sysctl.order=" order
	  n = split(keys, K, " ")
	  for (i = 1; i <= n; i++)
	    print "sysctl." K[i] "=" (K[i] in file ? file[K[i]] " " val[K[i]] : "none ") }'
for k in "$@"; do
	echo "live.$k=$(sysctl -n "$k" | tr -s '\t ' '  ')"
done
EOF
)

# The same lines from the probe's JSON facts for host $1 in file $2.
probe_view() {
	jq -r --arg h "$1" '.plays[0].results[$h][0].data as $d |
	    "config.source=\($d.kernel_config.source // "none")",
	    ($d.kernel_config | to_entries[] | select(.key | startswith("CONFIG_")) |
	        "config.\(.key)=\(.value)"),
	    ($d.modules | to_entries[] | "module.\(.key)=\(.value.state)"),
	    "ethtool.speed=\($d.default_route.speed_mbit // "")",
	    "qdisc.root=\($d.default_route.qdisc | "\(.kind) \(.handle)")",
	    "qdisc.children=\([$d.default_route.qdisc.children[] |
	        "\(.kind) \(.handle) \(.parent)"] | join(", "))",
	    "sysctl.order=\($d.sysctl_order | join(" "))",
	    ($d.sysctl | to_entries[] |
	        "sysctl.\(.key)=\(.value.file // "none") \(.value.file_value // "")",
	        "live.\(.key)=\(.value.value)")' "$2"
}

# guest_view HOST: the guest's lines (the tc JSON turned into the probe's
# root and children, ingress/clsact left out as the probe does).
guest_view() {
	local t
	# shellcheck disable=SC2086 # the keys, one argument each
	t=$(guest "$1" bash -s -- $PROBE_KEYS <<<"$TRUTH_SH") || return 1
	grep -v '^tc\.json=' <<<"$t"
	grep '^tc\.json=' <<<"$t" | sed 's/^tc\.json=//' | jq -r '
	    "qdisc.root=\(.[] | select(.root) | "\(.kind) \(.handle)")",
	    "qdisc.children=\([.[] | select((.root | not) and .kind != "ingress" and
	        .kind != "clsact") | "\(.kind) \(.handle) \(.parent)"] | join(", "))"'
}

# compare_facts DESC HOST PROBE_JSON: every line of the guest's view equals
# the probe's; the probe has no line the guest lacks.
compare_facts() {
	local desc=$1 h=$2 pj=$3 k v
	local -A P=() T=()
	while IFS='=' read -r k v; do P[$k]=$v; done < <(probe_view "$h" "$pj")
	while IFS='=' read -r k v; do T[$k]=$v; done < <(guest_view "$h")
	if ((${#T[@]} < 20)); then
		e2e_fail "[$h] $desc: the guest's own view is incomplete (${#T[@]} lines)"
		return
	fi
	T[ethtool.speed_lines]=${T[ethtool.speed_lines]:-?}
	assert_eq "[$h] $desc: ethtool shows no Speed line (UML's vector NIC)" 0 \
	    "${T[ethtool.speed_lines]}"
	unset 'T[ethtool.speed_lines]'
	for k in $(printf '%s\n' "${!T[@]}" "${!P[@]}" | sort -u); do
		assert_eq "[$h] $desc: $k as the guest says" "${T[$k]-(no such line)}" \
		    "${P[$k]-(no such fact)}"
	done
}

probe_one() {
	e2e_run 120 tt probe --format json -l "$1"
	assert_rc "probe $1 ($2) exits 0" 0
	cp "$E2E_TMP/out" "$E2E_TMP/probe-$2.json"
}

# Scenario 1: the running kernel's own config (configs.ko makes
# /proc/config.gz, which the probe prefers), sch_fq loaded, an fq root, and
# one probed key per sysctl.d rule, each file's value unique so that the
# live value after systemd-sysctl names the file that won:
# - tcp_notsent_lowat in /etc/sysctl.conf (applied by systemd through
#   Debian's 99-sysctl.conf link) and in 99-zz-tgs.conf, a later name;
# - tcp_mtu_probing in 60- (/etc), 65- (/usr/lib), 70-tgs.conf (/run): the
#   last name wins whatever its directory;
# - wmem_default in 75-tgs.conf of /etc, /run, /usr/local/lib, /usr/lib and
#   rmem_default in 76-tgs.conf of /run, /usr/local/lib, /usr/lib: one name,
#   the earliest directory masks the others;
# - tcp_slow_start_after_idle in /usr/lib's 80-tgs.conf, masked by a link
#   to /dev/null in /etc.
# The live values of those keys are kept in /run/tgs-live to be put back.
SCENARIO1_SH=$(cat <<'EOF'
set -e
modprobe configs
modprobe sch_fq
tc qdisc replace dev eth0 root fq
keys='net.ipv4.tcp_notsent_lowat net.ipv4.tcp_mtu_probing net.core.wmem_default
net.core.rmem_default net.ipv4.tcp_slow_start_after_idle'
for k in $keys; do echo "$k=$(sysctl -n "$k")"; done >/run/tgs-live
cp -p /etc/sysctl.conf /run/tgs-sysctl.conf
mkdir -p /run/sysctl.d /usr/local/lib/sysctl.d
echo 'net.ipv4.tcp_notsent_lowat = 111111' >>/etc/sysctl.conf
echo 'net.ipv4.tcp_notsent_lowat = 222222' >/etc/sysctl.d/99-zz-tgs.conf
echo 'net.ipv4.tcp_mtu_probing = 1' >/etc/sysctl.d/60-tgs.conf
echo 'net.ipv4.tcp_mtu_probing = 0' >/usr/lib/sysctl.d/65-tgs.conf
echo 'net.ipv4.tcp_mtu_probing = 2' >/run/sysctl.d/70-tgs.conf
echo 'net.core.wmem_default = 229376' >/etc/sysctl.d/75-tgs.conf
echo 'net.core.wmem_default = 233472' >/run/sysctl.d/75-tgs.conf
echo 'net.core.wmem_default = 237568' >/usr/local/lib/sysctl.d/75-tgs.conf
echo 'net.core.wmem_default = 241664' >/usr/lib/sysctl.d/75-tgs.conf
echo 'net.core.rmem_default = 245760' >/run/sysctl.d/76-tgs.conf
echo 'net.core.rmem_default = 249856' >/usr/local/lib/sysctl.d/76-tgs.conf
echo 'net.core.rmem_default = 253952' >/usr/lib/sysctl.d/76-tgs.conf
echo 'net.ipv4.tcp_slow_start_after_idle = 0' >/usr/lib/sysctl.d/80-tgs.conf
ln -s /dev/null /etc/sysctl.d/80-tgs.conf
systemctl restart systemd-sysctl
EOF
)

# Scenario 2: no kernel config (configs.ko removed, /boot/config-RELEASE
# hidden by a bind mount of /dev/null: it is there, readable and empty),
# so module states come from the module index; sch_fq unloaded and its
# module file hidden (a copy of net/sched without it, bind-mounted): the
# index still names it, modprobe fails; a prio root with an fq_codel and a
# pfifo child; /etc/sysctl.conf without the 99-sysctl.conf link, which
# systemd-sysctl then never reads.
SCENARIO2_SH=$(cat <<'EOF'
set -e
rel=$(uname -r)
rmmod configs
mount --bind /dev/null "/boot/config-$rel"
tc qdisc replace dev eth0 root handle 1: prio
tc qdisc add dev eth0 parent 1:1 handle 10: fq_codel
tc qdisc add dev eth0 parent 1:2 handle 20: pfifo limit 100
rmmod sch_fq
d=/lib/modules/$rel/kernel/net/sched
mkdir /run/tgs-sched
mount -t tmpfs tgs /run/tgs-sched
cp -a "$d/." /run/tgs-sched/
rm /run/tgs-sched/sch_fq.ko
mount --bind /run/tgs-sched "$d"
mv /etc/sysctl.d/99-sysctl.conf /run/tgs-99-sysctl.conf
rm /etc/sysctl.d/99-zz-tgs.conf
systemctl restart systemd-sysctl
EOF
)

# Undo both: every mount, file and link as it was, the live values back,
# fq_codel as the root again.
UNDO_SH=$(cat <<'EOF'
rel=$(uname -r)
d=/lib/modules/$rel/kernel/net/sched
umount "$d" && umount /run/tgs-sched && rmdir /run/tgs-sched
umount "/boot/config-$rel"
mv /run/tgs-99-sysctl.conf /etc/sysctl.d/99-sysctl.conf
cp -p /run/tgs-sysctl.conf /etc/sysctl.conf && rm /run/tgs-sysctl.conf
rm -f /etc/sysctl.d/*-tgs.conf /run/sysctl.d/*-tgs.conf \
    /usr/local/lib/sysctl.d/*-tgs.conf /usr/lib/sysctl.d/*-tgs.conf
rmdir /run/sysctl.d /usr/local/lib/sysctl.d
while IFS= read -r kv; do sysctl -q -w "$kv"; done </run/tgs-live
rm /run/tgs-live
tc qdisc replace dev eth0 root fq_codel
rmmod sch_prio
systemctl restart systemd-sysctl
EOF
)

# jq on the probe JSON of scenario $2 for host $1.
pj() {
	jq -r --arg h "$1" ".plays[0].results[\$h][0].data | $3" \
	    "$E2E_TMP/probe-$2.json"
}

probe_scenarios() {
	local h=$1 rel t0
	rel=$(guest "$h" uname -r)
	t0=$(now)

	guest "$h" bash -s <<<"$SCENARIO1_SH" >"$E2E_TMP/s1.log" 2>&1
	assert_eq "[$h] scenario 1 set up" 0 "$?" || sed 's/^/    | /' "$E2E_TMP/s1.log"
	probe_one "$h" s1
	compare_facts "config.gz, sch_fq loaded, fq root, sysctl.d rules" "$h" \
	    "$E2E_TMP/probe-s1.json"
	assert_eq "[$h] the running kernel's /proc/config.gz comes first" \
	    /proc/config.gz "$(pj "$h" s1 .kernel_config.source)"
	assert_eq "[$h] fq root, sch_fq loaded" "fq loaded" \
	    "$(pj "$h" s1 '"\(.default_route.qdisc.kind) \(.modules.sch_fq.state)"')"
	assert_eq "[$h] systemd-sysctl applies the files; /etc/sysctl.conf is not read by it" \
	    "systemd-sysctl /etc/sysctl.conf" \
	    "$(pj "$h" s1 '"\(.sysctl_boot) \(.sysctl_skipped | join(" "))"')"
	assert_eq "[$h] each key's winner and the live value after systemd-sysctl" \
	    "/etc/sysctl.d/99-zz-tgs.conf 222222 222222|/run/sysctl.d/70-tgs.conf 2 2|/etc/sysctl.d/75-tgs.conf 229376 229376|/run/sysctl.d/76-tgs.conf 245760 245760|none 1" \
	    "$(pj "$h" s1 '[.sysctl["net.ipv4.tcp_notsent_lowat", "net.ipv4.tcp_mtu_probing",
	        "net.core.wmem_default", "net.core.rmem_default",
	        "net.ipv4.tcp_slow_start_after_idle"] |
	        "\(.file // "none") \(.file_value // "")\(if .file_value then " " else "" end)\(.value)"] |
	        join("|")')"

	guest "$h" bash -s <<<"$SCENARIO2_SH" >"$E2E_TMP/s2.log" 2>&1
	assert_eq "[$h] scenario 2 set up" 0 "$?" || sed 's/^/    | /' "$E2E_TMP/s2.log"
	probe_one "$h" s2
	compare_facts "config hidden, sch_fq.ko hidden, prio root, no 99-sysctl.conf" \
	    "$h" "$E2E_TMP/probe-s2.json"
	assert_eq "[$h] an empty /boot/config is no config: unknown, with the reason" \
	    "unknown unknown|/boot/config-$rel is not a kernel config (no CONFIG_MODULES line)" \
	    "$(pj "$h" s2 '.kernel_config | "\(.CONFIG_TCP_CONG_BBR) \(.CONFIG_NET_SCH_FQ)|\(.reason)"')"
	assert_eq "[$h] without a config, tcp_bbr is decided by the module index: loadable, available" \
	    "false true true" \
	    "$(pj "$h" s2 '.modules.tcp_bbr | "\(.builtin) \(.loadable) \(.available)"')"
	assert_eq "[$h] sch_fq: the index names a file that is gone: absent, with the reason" \
	    "absent false|the module index names /lib/modules/$rel/kernel/net/sched/sch_fq.ko, which is not there" \
	    "$(pj "$h" s2 '.modules.sch_fq | "\(.state) \(.available)|\(.reason)"')"
	assert_eq "[$h] prio root with its children" \
	    "prio 1: [fq_codel 10: 1:1, pfifo 20: 1:2]" \
	    "$(pj "$h" s2 '.default_route.qdisc | "\(.kind) \(.handle) [\([.children[] | "\(.kind) \(.handle) \(.parent)"] | join(", "))]"')"
	assert_eq "[$h] tcp_notsent_lowat only in /etc/sysctl.conf, with no link: no file sets it at boot" \
	    "none" "$(pj "$h" s2 '.sysctl["net.ipv4.tcp_notsent_lowat"].file // "none"')"

	guest "$h" bash -s <<<"$UNDO_SH" >"$E2E_TMP/undo.log" 2>&1
	assert_eq "[$h] scenarios undone" 0 "$?" || sed 's/^/    | /' "$E2E_TMP/undo.log"
	probe_one "$h" s3
	compare_facts "undone" "$h" "$E2E_TMP/probe-s3.json"
	assert_eq "[$h] undone: config, modules, files, values as on the stock probe" \
	    "$(pj "$h" s0 '[.kernel_config, .modules, .sysctl_order, .sysctl_files,
	        (.sysctl | map_values(del(.mode)))] | tojson')" \
	    "$(pj "$h" s3 '[.kernel_config, .modules, .sysctl_order, .sysctl_files,
	        (.sysctl | map_values(del(.mode)))] | tojson')"
	assert_eq "[$h] undone: fq_codel root again, no children" "fq_codel []" \
	    "$(pj "$h" s3 '.default_route.qdisc | "\(.kind) \(.children | tojson)"')"
	e2e_log "figure: probe facts vs the guest's own commands, 3 changed states of $h: $(secs_since "$t0") s"
}

e2e_run 120 tt probe --format json
assert_rc "probe exits 0" 0
cp "$E2E_TMP/out" "$E2E_TMP/probe-s0.json"
for h in "${HOSTS[@]}"; do
	d=".plays[0].results[\"$h\"][0].data"
	rel=$(guest "$h" uname -r)
	assert_eq "[$h] probe ran as root (become)" 0 "$(jq_out "$d.uid")"
	assert_eq "[$h] hostname" "$h" "$(jq_out "$d.hostname")"
	assert_eq "[$h] kernel release = uname -r" "$rel" "$(jq_out "$d.kernel.release")"
	assert_eq "[$h] virtualization uml" uml "$(jq_out "$d.virtualization.type")"
	assert_eq "[$h] distribution Debian 12" "debian 12" \
	    "$(jq_out "$d.distribution.id + \" \" + $d.distribution.version_id")"
	# The stock look; that each fact is the guest's own is compare_facts'.
	assert_eq "[$h] stock: cubic, default_qdisc fq_codel, rmem_max 212992 writable" \
	    "cubic fq_codel 212992 true" \
	    "$(jq_out "$d | \"\(.congestion.current) \(.default_qdisc) \(.sysctl[\"net.core.rmem_max\"] | \"\(.value) \(.writable)\")\"")"
	assert_eq "[$h] default-route interface eth0 via the bridge" \
	    "eth0 $LAB_GATEWAY" \
	    "$(jq_out "$d.default_route | \"\(.interface) \(.gateway)\"")"
	assert_eq "[$h] stock: fq_codel root qdisc" fq_codel \
	    "$(jq_out "$d.default_route.qdisc.kind")"
	assert_eq "[$h] kernel config from /boot/config-RELEASE (no /proc/config.gz)" \
	    "/boot/config-$rel" "$(jq_out "$d.kernel_config.source")"
	assert_eq "[$h] tcp_bbr and sch_fq: modules, loadable, not loaded" \
	    "false true false false true false" \
	    "$(jq_out "[$d.modules.tcp_bbr, $d.modules.sch_fq] | map(\"\(.builtin) \(.loadable) \(.loaded)\") | join(\" \")")"
	assert_eq "[$h] no link speed (ethtool shows none)" null \
	    "$(jq_out "$d.default_route.speed_mbit")"
done
t0=$(now)
for h in "${HOSTS[@]}"; do
	assert_eq "[$h] speed_reason says the driver reports no speed" \
	    "ethtool shows no speed for eth0 (the driver reports none)" \
	    "$(pj "$h" s0 .default_route.speed_reason)"
	compare_facts stock "$h" "$E2E_TMP/probe-s0.json"
done
e2e_log "figure: probe facts vs the guest's own commands, 2 stock guests: $(secs_since "$t0") s"
probe_scenarios "${HOSTS[0]}"

# Memory per guest: proportional set size of every host process the
# guest runs (its kernel, its processes, its memory file in /dev/shm).
for h in "${HOSTS[@]}"; do
	pgid=$(cat "$GDIR/guests/$h/uml.pid")
	kb=0
	for p in $(ps -g "$pgid" -o pid=); do
		v=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null)
		kb=$((kb + ${v:-0}))
	done
	e2e_log "figure: $h uses $((kb / 1024)) MiB of host memory (PSS, $(ps -g "$pgid" -o pid= | wc -l) processes)"
done

# rtt_avg FROM TO_ADDR: ping's average round trip in ms.
rtt_avg() {
	guest "$1" ping -n -q -c 4 -i 0.3 "$2" | awk -F/ '/^rtt/ { print $5 }'
}
# assert_in_range DESC X LO HI : LO <= X <= HI as decimal numbers.
assert_in_range() {
	if awk -v x="$2" -v lo="$3" -v hi="$4" \
	    'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; then
		e2e_ok "$1 ($2)"
	else
		e2e_fail "$1: '$2' is not in $3..$4"
	fi
}

# The emulated WAN takes no root qdisc: both roots stay stock, and an fq
# root (what tcptune sets) leaves the emulation intact.
e2e_run 60 "$GUESTS" wan -d "$GDIR" "${HOSTS[0]}" "${HOSTS[1]}" \
    --delay-ms 25 --rate-mbit 100
assert_rc "wan ${HOSTS[0]} ${HOSTS[1]} (25 ms each way, 100 Mbit/s)" 0
r=$(rtt_avg "${HOSTS[0]}" "${ADDRS[1]}")
assert_in_range "wan: guest-to-guest rtt in ms (50 expected)" "$r" 49 60
r=$(ping -n -q -c 3 -i 0.3 "${ADDRS[1]}" | awk -F/ '/^rtt/ { print $5 }')
assert_in_range "wan: the controller's path is not delayed (rtt ms)" "$r" 0 5
for h in "${HOSTS[@]}"; do
	assert_eq "[$h] wan leaves the root qdisc stock" fq_codel \
	    "$(guest "$h" tc qdisc show dev eth0 root | awk '{ print $2; exit }')"
done
guest "${HOSTS[0]}" tc qdisc replace dev eth0 root fq
r=$(rtt_avg "${HOSTS[0]}" "${ADDRS[1]}")
assert_in_range "wan: intact under an fq root (rtt ms)" "$r" 49 60

h=${HOSTS[1]}
old=$(guest "$h" cat /proc/sys/kernel/random/boot_id)
t0=$(now)
e2e_run 300 "$GUESTS" reboot -d "$GDIR" "$h"
assert_rc "reboot $h returns" 0
e2e_log "figure: $h rebooted (back to sshd) in $(secs_since "$t0") s"
assert_ne "[$h] a new boot_id after reboot" "$old" \
    "$(guest "$h" cat /proc/sys/kernel/random/boot_id)"
assert_eq "[$h] systemd is PID 1 after the reboot" systemd \
    "$(guest "$h" cat /proc/1/comm)"
e2e_run 60 tt ping -l "$h"
assert_rc "ping $h after its reboot (same host key: strict checking holds)" 0
assert_eq "[$h] still the stock fq_codel root qdisc after the reboot" fq_codel \
    "$(guest "$h" tc qdisc show dev eth0 root | awk '{ print $2; exit }')"
r=$(rtt_avg "${HOSTS[0]}" "${ADDRS[1]}")
assert_in_range "wan: set up again after $h's reboot (rtt ms)" "$r" 49 60

pgids=$(cat "$GDIR"/guests/*/uml.pid | paste -sd' ')
e2e_run 60 "$GUESTS" down -d "$GDIR"
assert_rc "down exits 0" 0
left=
for g in $pgids; do
	left+=$(ps -g "$g" -o pid= | tr -d ' \n')
done
assert_eq "down: no guest process left (process groups $pgids)" "" "$left"
assert_eq "down: no bridge or veth left" "" \
    "$(ip -br link show | awk '$1 ~ /^tgs(br0|v[0-9])/ { print $1 }')"
e2e_run 60 "$GUESTS" down -d "$GDIR"
assert_rc "down again (nothing to do) exits 0" 0

e2e_finish
