#!/bin/bash
# guests-timer.sh - drift on a real systemd timer (issue 13, deliverable 2):
# the shipped contrib/systemd units run on a real systemd (252, PID 1 of a
# User-mode Linux guest, tests/guests/guests.sh) with their hardening as
# shipped, and the Prometheus textfile they write is checked.
#
# Two guests. guest02 is the tuned host: a small tcp_buffers + sysctl play
# ($E2E_TMP/drift-check.yml, below) is applied to it from this machine
# through the normal CLI (the lab's non-root user with become, strict host
# keys), so the check starts in sync. guest01 is the controller, set up as
# docs/drift.md says: this machine's tcptune binary (same Debian 12; the
# image has its runtime libraries) in /usr/local/bin, the lab's login user
# replaced by the system user `tcptune` (home /var/lib/tcptune, no sudo),
# its own key made by ssh-keygen and authorised on guest02, known_hosts by
# ssh-keyscan (checked against the key the lab made for guest02), the same
# playbook as /etc/tcptune/drift-check.yml, /etc/tcptune/inventory.yml
# naming guest02, a root-only drift.env, the textfile directory, and the
# two units copied byte for byte from contrib/systemd.
#
# The only change to what is shipped is a drop-in for the TIMER
# (/etc/systemd/system/tcptune-drift.timer.d/10-e2e.conf): OnCalendar=
# reset, no random delay, first run 3 s after the timer starts, then
# $INTERVAL s after each run started. The service gets no drop-in: its
# hardening (seccomp @system-service, NoNewPrivileges, ProtectSystem=strict,
# MemoryDenyWriteExecute, no capabilities, ...) works on the UML 6.1
# kernel (CONFIG_SECCOMP_FILTER=y), and the test checks it is in force in
# the running tcptune (/proc/PID/status: Seccomp 2, NoNewPrivs 1, no
# capabilities). The service is never started by hand: every run must
# come from the timer (its LastTriggerUSec, then the service's start).
#
#   1. `systemctl enable --now tcptune-drift.timer`; the first run exits
#      0 and writes the in-sync series;
#   2. `sysctl -w net.core.rmem_max=212992` on guest02; the next run of the
#      timer exits 8, which the unit counts as success (SuccessExitStatus=8,
#      Result=success, not failed), and the textfile has the drift series
#      (the journal has the key with expected and live values);
#   3. a host added to the inventory that cannot be reached: the next run
#      exits 12 (4|8) and the unit is failed.
# Both textfiles (in sync, drifted) and the wall times are logged as
# "figure:" lines.
#
# Usage: guests-timer.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason. KEEP_LAB=1 keeps the guests.
# Programs for the guests' sh are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-timer "${1:-}"
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"
cd "$E2E_SRC" || exit 1

GDIR=/tmp/tcptune-e2e-guests-timer
PROM=/var/lib/node_exporter/textfile_collector/tcptune.prom
DROPIN=/etc/sysctl.d/90-tcptune.conf
# Seconds between two runs of the timer (OnUnitActiveSec); a run takes 3-5 s.
INTERVAL=15
# Longest wait for one run of the timer: the interval, the run, and slack
# for a loaded machine.
WAIT=$((INTERVAL + 45))

# secs A_US B_US : B - A in seconds (microsecond inputs).
secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e6 }'
}

# The tuning of guest02, and what the timer on guest01 checks it against.
cat >"$E2E_TMP/drift-check.yml" <<'EOF'
# /etc/tcptune/drift-check.yml of e2e/guests-timer: what guest02 was tuned
# with (tcptune play from the test machine), checked by the drift timer.
- name: tuned for the drift timer
  hosts: all
  become: true
  gather_facts: true
  tasks:
    - name: TCP buffer ceilings
      tcp_buffers:
        bandwidth_mbit: 200
        rtt_ms: 50
        max_buffer: 16MiB
    - name: explicit keys
      sysctl:
        values:
          net.ipv4.tcp_notsent_lowat: 131072
          net.ipv4.tcp_mtu_probing: 1
EOF

# The test's only change to the shipped units: the timer fires soon.
cat >"$E2E_TMP/timer-dropin.conf" <<EOF
# e2e/guests-timer: run the check now and every $INTERVAL s instead of hourly.
[Timer]
OnCalendar=
RandomizedDelaySec=0
AccuracySec=1s
OnActiveSec=3s
OnUnitActiveSec=${INTERVAL}s
EOF

# The controller's setup, as docs/drift.md gives it (without its
# `systemctl start`: here only the timer starts the service). $1 is the
# address of the tuned host, as the inventory names it.
CONTROLLER_SETUP='
set -eu
# The image has the lab login user tcptune (uid 1000, sudo); a controller
# has the system user docs/drift.md creates instead.
userdel -r tcptune 2>/dev/null
rm -f /etc/sudoers.d/tcptune
useradd --system --home-dir /var/lib/tcptune --shell /usr/sbin/nologin tcptune
install -d -o tcptune -g tcptune -m 0700 /var/lib/tcptune /var/lib/tcptune/.ssh
sudo -u tcptune ssh-keygen -q -t ed25519 -N "" -f /var/lib/tcptune/.ssh/id_ed25519
sudo -u tcptune ssh-keyscan -t ed25519 "$1" >>/var/lib/tcptune/.ssh/known_hosts 2>/dev/null
install -d -m 0755 /etc/tcptune
install -m 0600 -o root -g root /dev/null /etc/tcptune/drift.env
install -d -o root -g tcptune -m 0775 /var/lib/node_exporter/textfile_collector
'

# The guest's side of wait_run (/root/wait-run in guest01): waits at most
# $2 s for a run of the service that the timer triggered after $1 (realtime
# microseconds, the guest's clock) and that has ended; then prints its
# properties as KEY=VALUE lines (times in microseconds from systemd's D-Bus
# properties), with $3 = 1 "hard: ..." lines (the /proc status of the
# running tcptune, caught while it ran), a line "--" and the textfile.
# Exit 1 on the time limit.
WAIT_RUN='
since=$1 limit=$2 hard=$3
obj=/org/freedesktop/systemd1/unit/tcptune_2ddrift_2e
us() { busctl get-property org.freedesktop.systemd1 "$obj$1" \
    org.freedesktop.systemd1.$2 "$3" | cut -d" " -f2; }
end=$(($(date +%s) + limit))
while :; do
	if [ "$hard" = 1 ]; then
		pid=$(systemctl show -p MainPID --value tcptune-drift.service)
		# Only after the exec: before it, systemd is still setting up.
		if [ "$pid" -gt 0 ] && grep -q "^Name:[[:space:]]*tcptune$" "/proc/$pid/status" 2>/dev/null; then
			grep -E "^(Name|Uid|NoNewPrivs|Seccomp|CapEff|CapBnd):" \
			    "/proc/$pid/status" | tr -s "\t" " " | sed "s/^/hard: /" >/tmp/hard
			[ -s /tmp/hard ] && hard=0
		fi
	fi
	trig=$(us timer Timer LastTriggerUSec)
	start=$(us service Service ExecMainStartTimestamp)
	exit=$(us service Service ExecMainExitTimestamp)
	state=$(systemctl show -p ActiveState --value tcptune-drift.service)
	if [ "$trig" -gt "$since" ] && [ "$start" -ge "$trig" ] &&
	    [ "$exit" -ge "$start" ] &&
	    { [ "$state" = inactive ] || [ "$state" = failed ]; }; then
		break
	fi
	[ "$(date +%s)" -lt "$end" ] || { echo "state=$state"; exit 1; }
	sleep 0.2
done
echo "timer_active=$(us timer Unit ActiveEnterTimestamp)"
echo "trigger=$trig"
echo "start=$start"
echo "exit=$exit"
echo "state=$state"
systemctl show -p ExecMainStatus -p Result -p NRestarts tcptune-drift.service
cat /tmp/hard 2>/dev/null
rm -f /tmp/hard
echo --
cat '"$PROM"'
'

# wait_run SINCE_US TAG [HARD] : wait_run in guest01; its output in
# $E2E_TMP/TAG.{props,prom}; the properties as P[KEY].
declare -A P
wait_run() {
	local out=$E2E_TMP/$2.out
	e2e_run $((WAIT + 10)) guest "$CTL" sh /root/wait-run "$1" "$WAIT" \
	    "${3:-0}"
	printf '%s\n' "$RUN_OUT" >"$out"
	sed '/^--$/,$d' "$out" >"$E2E_TMP/$2.props"
	sed '1,/^--$/d' "$out" >"$E2E_TMP/$2.prom"
	P=()
	local k v
	while IFS='=' read -r k v; do
		[[ -n $k ]] && P[$k]=$v
	done < <(grep -E '^[A-Za-z_]+=' "$E2E_TMP/$2.props")
	if [[ $RUN_RC != 0 ]]; then
		e2e_fail "$2: no run of the timer ended within $WAIT s (unit ${P[state]:-?})"
		e2e_show_run
		guest "$CTL" journalctl -u tcptune-drift.service -u \
		    tcptune-drift.timer --no-pager | tail -n 20 | sed 's/^/    | /'
		return 1
	fi
	e2e_ok "$2: a run triggered by the timer ended ($(secs "${P[trigger]}" "${P[exit]}") s after the trigger)"
}

# series FILE : the textfile's samples, without the two timing ones.
series() {
	grep -v '^#' "$1" | grep -Ev '^tcptune_last_run_(timestamp|duration)_seconds '
}

# log_textfile TAG FILE : the textfile, verbatim, as figure lines.
log_textfile() {
	local line
	e2e_log "figure: textfile $2 ($1), $(wc -l <"$2") lines:"
	while IFS= read -r line; do
		e2e_log "figure: $1 | $line"
	done <"$2"
}

# check_written_by_run TAG FILE : the file's timestamp is inside the run.
check_written_by_run() {
	local ts
	ts=$(sed -n 's/^tcptune_last_run_timestamp_seconds \([0-9.]*\)$/\1/p' "$2")
	if awk -v t="$ts" -v a="${P[start]}" -v b="${P[exit]}" \
	    'BEGIN { exit !(t != "" && t >= int(a / 1e6) && t <= b / 1e6 + 1) }'; then
		e2e_ok "$1: the textfile was written by that run (timestamp $ts)"
	else
		e2e_fail "$1: textfile timestamp '$ts' not within the run ($(secs 0 "${P[start]}")..$(secs 0 "${P[exit]}"))"
	fi
}

# ---- the lab
guests_up 2 tgm 198.18.214
CTL=${HOSTS[0]} TGT=${HOSTS[1]} TGT_ADDR=${ADDRS[1]}

# ---- guest02 tuned from this machine, in sync
e2e_run 300 tt play "$E2E_TMP/drift-check.yml" -l "$TGT"
figure "play on $TGT"
assert_rc "play on $TGT exits 0" 0
assert_match "play: $TGT changed=1" "$TGT +: ok=[0-9]+ +changed=1 +unreachable=0 +failed=0" \
    "$RUN_OUT"
WANT_RMEM=$(guest "$TGT" sed -n 's/^net\.core\.rmem_max = //p' "$DROPIN")
assert_match "$TGT: the drop-in raises rmem_max" '^[0-9]{7,}$' "$WANT_RMEM"
assert_eq "$TGT: rmem_max live as the drop-in says" "$WANT_RMEM" \
    "$(guest "$TGT" sysctl -n net.core.rmem_max)"

# ---- guest01, the controller
# Stripped and compressed: bulk TCP from this machine into a guest crawls
# (~25-45 KB/s, most segments retransmitted), so 1 MB would take 20-35 s.
strip -o "$E2E_TMP/tcptune" "$TCPTUNE" 2>/dev/null ||
	cp "$TCPTUNE" "$E2E_TMP/tcptune"
gzip -9 "$E2E_TMP/tcptune"
e2e_run 120 guest "$CTL" sh -c 'gunzip >/usr/local/bin/tcptune &&
    chmod 0755 /usr/local/bin/tcptune && /usr/local/bin/tcptune version' \
    <"$E2E_TMP/tcptune.gz"
figure "$CTL: tcptune copied in ($(wc -c <"$E2E_TMP/tcptune.gz") bytes gzip'ed)"
if [[ $RUN_RC != 0 ]]; then
	e2e_fail "$CTL: this machine's tcptune does not run in the guest:"
	e2e_show_run
	guest "$CTL" ldd /usr/local/bin/tcptune | grep 'not found' | sed 's/^/    | /'
	exit 1
fi
e2e_ok "$CTL: tcptune runs in the guest ($RUN_OUT)"
e2e_run 60 guest "$CTL" sh -s "$TGT_ADDR" <<<"$CONTROLLER_SETUP"
figure "$CTL: controller setup (docs/drift.md)"
assert_rc "$CTL: the setup of docs/drift.md" 0 || exit 1
assert_eq "$CTL: ssh-keyscan recorded the key the lab made for $TGT" \
    "$(grep "^$TGT_ADDR " "$LAB_KNOWN_HOSTS")" \
    "$(guest "$CTL" cat /var/lib/tcptune/.ssh/known_hosts)"
guest "$CTL" cat /var/lib/tcptune/.ssh/id_ed25519.pub |
    guest "$TGT" sh -c 'cat >>/home/tcptune/.ssh/authorized_keys'
printf 'all:\n  hosts:\n    %s:\n      ansible_host: %s\n      ansible_user: tcptune\n' \
    "$TGT" "$TGT_ADDR" >"$E2E_TMP/inventory.yml"
guest "$CTL" sh -c 'cat >/etc/tcptune/inventory.yml' <"$E2E_TMP/inventory.yml"
guest "$CTL" sh -c 'cat >/etc/tcptune/drift-check.yml' \
    <"$E2E_TMP/drift-check.yml"
for u in tcptune-drift.service tcptune-drift.timer; do
	guest "$CTL" sh -c 'cat >"/etc/systemd/system/$1"' sh "$u" \
	    <"contrib/systemd/$u"
done
guest "$CTL" sh -c 'mkdir -p /etc/systemd/system/tcptune-drift.timer.d &&
    cat >/etc/systemd/system/tcptune-drift.timer.d/10-e2e.conf &&
    chmod 0644 /etc/tcptune/*.yml /etc/systemd/system/tcptune-drift.* &&
    systemctl daemon-reload' <"$E2E_TMP/timer-dropin.conf"
assert_eq "$CTL: the units are contrib/systemd's, byte for byte" \
    "$(cd contrib/systemd && sha256sum tcptune-drift.service tcptune-drift.timer)" \
    "$(guest "$CTL" sh -c 'cd /etc/systemd/system && sha256sum tcptune-drift.service tcptune-drift.timer')"
e2e_run 60 guest "$CTL" systemd-analyze verify \
    /etc/systemd/system/tcptune-drift.service \
    /etc/systemd/system/tcptune-drift.timer
assert_eq "$CTL: systemd-analyze verify (systemd 252) says nothing" "0||" \
    "$RUN_RC|$RUN_OUT|$RUN_ERR"
assert_eq "$CTL: the service has no drop-in (hardening as shipped)" "" \
    "$(guest "$CTL" systemctl show -p DropInPaths --value tcptune-drift.service)"
assert_eq "$CTL: the timer: the test's drop-in, no calendar, no random delay" \
    "/etc/systemd/system/tcptune-drift.timer.d/10-e2e.conf|0|" \
    "$(guest "$CTL" sh -c 'for p in DropInPaths RandomizedDelayUSec TimersCalendar; do
	echo "$(systemctl show -p $p --value tcptune-drift.timer)"; done' | paste -sd'|')"

# ---- 1. the timer's first run: in sync
guest "$CTL" sh -c 'cat >/root/wait-run' <<<"$WAIT_RUN"
T_ENABLE=$(guest "$CTL" sh -c 'date +%s%6N; systemctl enable --now tcptune-drift.timer 2>/dev/null')
assert_eq "$CTL: the timer is enabled and waiting" "enabled|active" \
    "$(guest "$CTL" sh -c 'systemctl is-enabled tcptune-drift.timer; systemctl is-active tcptune-drift.timer' | paste -sd'|')"
wait_run "$T_ENABLE" insync 1 || exit 1
e2e_log "figure: systemctl enable --now -> timer active $(secs "$T_ENABLE" "${P[timer_active]}") s -> first trigger $(secs "${P[timer_active]}" "${P[trigger]}") s (OnActiveSec=3s) -> service started $(secs "${P[trigger]}" "${P[start]}") s later; run $(secs "${P[start]}" "${P[exit]}") s"
assert_eq "insync: exit 0, Result=success, no restarts, inactive" \
    "0|success|0|inactive" \
    "${P[ExecMainStatus]}|${P[Result]}|${P[NRestarts]}|${P[state]}"
assert_eq "insync: the running tcptune: user tcptune, NoNewPrivs, seccomp filter, no capabilities" \
    "hard: Name: tcptune|hard: Uid: $(guest "$CTL" id -u tcptune | sed 's/.*/& & & &/')|hard: CapEff: 0000000000000000|hard: CapBnd: 0000000000000000|hard: NoNewPrivs: 1|hard: Seccomp: 2" \
    "$(grep '^hard:' "$E2E_TMP/insync.props" | tr -s ' ' | sed 's/ $//' | paste -sd'|')"
log_textfile "in sync" "$E2E_TMP/insync.prom"
assert_eq "insync: the in-sync series" \
    "tcptune_drift_items{host=\"$TGT\"} 0
tcptune_host_reachable{host=\"$TGT\"} 1
tcptune_host_in_sync{host=\"$TGT\"} 1
tcptune_hosts{state=\"in_sync\"} 1
tcptune_hosts{state=\"drifted\"} 0
tcptune_hosts{state=\"unreachable\"} 0
tcptune_hosts{state=\"failed\"} 0" "$(series "$E2E_TMP/insync.prom")"
assert_eq "insync: every family has HELP and TYPE gauge" \
    "7 7" "$(grep -c '^# HELP tcptune_' "$E2E_TMP/insync.prom") $(grep -c '^# TYPE tcptune_[a-z_]* gauge$' "$E2E_TMP/insync.prom")"
check_written_by_run insync "$E2E_TMP/insync.prom"
assert_eq "insync: $PROM is tcptune's, 0644, no temporary file left" \
    "tcptune 644|tcptune.prom" \
    "$(guest "$CTL" sh -c 'stat -c "%U %a" "$1"; ls -A "${1%/*}"' sh "$PROM" | paste -sd'|')"

# ---- 2. sysctl -w on guest02: the next run of the timer sees the drift
guest "$TGT" sysctl -q -w net.core.rmem_max=212992
T_WRITE=$(guest "$CTL" date +%s%6N)
e2e_log "sysctl -w net.core.rmem_max=212992 on $TGT (drop-in: $WANT_RMEM)"
wait_run "$T_WRITE" drifted || exit 1
e2e_log "figure: sysctl -w -> next trigger $(secs "$T_WRITE" "${P[trigger]}") s, run $(secs "${P[start]}" "${P[exit]}") s"
assert_eq "drifted: exit 8 counted as success (SuccessExitStatus=8): Result=success, inactive, not failed" \
    "8|success|0|inactive" \
    "${P[ExecMainStatus]}|${P[Result]}|${P[NRestarts]}|${P[state]}"
log_textfile drifted "$E2E_TMP/drifted.prom"
assert_eq "drifted: the drift series" \
    "tcptune_drift_items{host=\"$TGT\"} 1
tcptune_drift_item{host=\"$TGT\",key=\"net.core.rmem_max\",cause=\"runtime\"} 1
tcptune_host_reachable{host=\"$TGT\"} 1
tcptune_host_in_sync{host=\"$TGT\"} 0
tcptune_hosts{state=\"in_sync\"} 0
tcptune_hosts{state=\"drifted\"} 1
tcptune_hosts{state=\"unreachable\"} 0
tcptune_hosts{state=\"failed\"} 0" "$(series "$E2E_TMP/drifted.prom")"
check_written_by_run drifted "$E2E_TMP/drifted.prom"
# The run's own words, in the journal: the key with expected and live.
JOURNAL=$(guest "$CTL" journalctl -u tcptune-drift.service -o cat --no-pager \
    --since "@$((P[start] / 1000000))")
assert_match "drifted: the journal has the key, expected and live" \
    "$TGT: net\.core\.rmem_max: expected '$WANT_RMEM', live '212992' \(changed at runtime\)" \
    "$JOURNAL"
e2e_log "journal of the drifted run: $(grep -F "$TGT:" <<<"$JOURNAL" | head -1)"

# ---- 3. an unreachable host: exit 12 fails the unit
# 198.18.214.99 is on the lab's bridge, where no guest answers.
printf '    gone:\n      ansible_host: %s.99\n      ansible_user: tcptune\n' \
    "${TGT_ADDR%.*}" >>"$E2E_TMP/inventory.yml"
guest "$CTL" sh -c 'cat >/etc/tcptune/inventory.yml' <"$E2E_TMP/inventory.yml"
T_GONE=$(guest "$CTL" date +%s%6N)
wait_run "$T_GONE" unreachable || exit 1
assert_eq "unreachable: exit 12 (4|8) marks the unit failed" \
    "12|exit-code|failed" \
    "${P[ExecMainStatus]}|${P[Result]}|${P[state]}"
assert_match "unreachable: gone is unreachable in the textfile" \
    'tcptune_host_reachable\{host="gone"\} 0' "$(cat "$E2E_TMP/unreachable.prom")"

e2e_log "figure: whole test $SECONDS s"
e2e_finish
