#!/bin/bash
# guests-confirm.sh - play --confirm-timeout on a real kernel (issue 21,
# deliverable 3): one User-mode Linux guest (systemd as PID 1, so the revert
# is a transient systemd timer), tuned as the non-root user with become:
#   1. a harmful change (tests/data/confirm/harmful.yml: tcp_adv_win_scale
#      -31, every receive window 0 bytes, so no new SSH connection gets its
#      first byte through, and the apply's own answer stalls once its SSH
#      window needs the controller's adjust) with --confirm-timeout 30: the
#      host reverts by itself within 30 + 10 s of arming its timer (the
#      journal's timer and service lines), new connections tried
#      meanwhile (ssh every 2 s) fail until then and get through after,
#      the play fails with "connection lost after the change; the host
#      restored its previous state at HH:MM:SS", the guest answers again,
#      and its files (path, type, mode, sha256), `sysctl -a` (minus the
#      keys that move by themselves), qdisc tree and routes are as before;
#      nothing of the revert is left (no timer, no unit, no
#      /var/lib/tcptune/confirm);
#   2. --check with the same playbook schedules nothing (no systemd-run in
#      the journal, no timer, no state);
#   3. a harmless qdisc change (harmless.yml, fq) with the default: confirmed
#      from a new connection, the timer cancelled (systemctl list-timers
#      shows nothing of ours, no tcptune-revert unit is loaded), fq stays.
# Wall times of every step are logged as "figure:" lines.
#
# Usage: guests-confirm.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason.
# Programs for the guest's sh are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-confirm "${1:-}"
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"
cd "$E2E_SRC" || exit 1

GDIR=/tmp/tcptune-e2e-guests-confirm
DATA=tests/data/confirm
TIMEOUT=30
# A loaded machine's guest can take a minute to answer ssh: the connect
# and command timeouts are not what this test is about.
SLOW=(--timeout 120 --command-timeout 600)
export GUESTS_SSH_TIMEOUT=120

# net_snap HOST : every qdisc of every interface and every route.
net_snap() {
	guest "$1" sh -c 'tc qdisc show; ip route show table all'
}

# ours HOST : anything of tcptune's revert that systemd or the state keeps:
# timers, loaded units, the confirm directory.
ours() {
	guest "$1" sh -c '
		systemctl list-timers --all --no-legend | grep tcptune-revert
		systemctl list-units --all --no-legend "tcptune-revert*"
		ls -d /var/lib/tcptune/confirm 2>/dev/null' | sed '/^$/d'
}

# new_conn HOST : "ok" when a new ssh connection runs `true` within 15 s,
# else "cut".
new_conn() {
	# ConnectTimeout bounds the TCP connect only: a handshake stalled on
	# a zero window waits for the kernel's window probes (90 s seen).
	timeout 20 ssh -F "$GDIR/ssh_config" -o ConnectTimeout=15 "$1" true \
	    >/dev/null 2>&1 && echo ok || echo cut
}

# prober HOST FILE STOP : new_conn every 2 s, "EPOCH ok|cut" lines into
# FILE, until file STOP exists and then until one gets through (at most 10
# more tries): the play may end before the prober's own try after the
# revert.
prober() {
	local r more=10
	while :; do
		r=$(new_conn "$1")
		echo "$(date +%s) $r"
		if [[ -e $3 ]]; then
			[[ $r == ok ]] && break
			((--more > 0)) || break
		fi
		sleep 2
	done >"$2"
}

# journal_since HOST EPOCH : the journal's lines about tcptune-revert units
# since EPOCH, with unix timestamps.
journal_since() {
	guest "$1" journalctl --no-pager -o short-unix --since "@$2" |
	    grep 'tcptune-revert'
}

guests_up 1 tgc 198.18.227
h=${HOSTS[0]}
volatile_calibrate "$h"
snap "$h" stock
net_snap "$h" >"$E2E_TMP/net.stock"
assert_eq "$h: stock: tcp_adv_win_scale 1, nothing of ours" "1|" \
    "$(guest "$h" sysctl -n net.ipv4.tcp_adv_win_scale)|$(ours "$h")"

# ---- 1. the harmful change: the host reverts it by itself
assert_eq "$h: before the change a new connection gets through in 15 s" ok \
    "$(new_conn "$h")"
t0=$(guest "$h" date +%s)
prober "$h" "$E2E_TMP/probe.log" "$E2E_TMP/play.done" &
probe_pid=$!
e2e_run 1200 tt play "$DATA/harmful.yml" --confirm-timeout "$TIMEOUT" -vv "${SLOW[@]}"
figure "play (harmful)"
touch "$E2E_TMP/play.done"
wait "$probe_pid"
e2e_log "new connections during the play: $(awk '{ print $2 }' "$E2E_TMP/probe.log" | uniq -c | paste -sd' ')"
assert_match "the change cut new connections off, then they got through again" \
    'cut ok$' "$(awk '{ print $2 }' "$E2E_TMP/probe.log" | uniq | paste -sd' ')"
assert_rc "harmful play: a host failed (exit 2)" 2
assert_match "harmful play says what happened" \
    "fatal: \[$h\]: FAILED! => connection lost after the change; the host restored its previous state at [0-2][0-9]:[0-5][0-9]:[0-5][0-9]$" \
    "$(grep -E '^fatal: ' <<<"$RUN_OUT")"
e2e_log "tcptune's own new connections that failed: $(grep -cE "<$h> connect to .* failed after" <<<"$RUN_ERR$RUN_OUT")"
jl=$(journal_since "$h" "$t0")
e2e_log "journal: $(tr '\n' '|' <<<"$jl")"
# The host reverts TIMEOUT after the change: by the arm's timer when the
# change cut the apply's answer off before its end, else by the settle's
# ("-s"), which replaces the arm once the answer is back and runs because
# the new connection cannot confirm. Either is measured from the arm.
armed=$(awk '/Started tcptune-revert-[0-9a-f]*\.timer/ { print int($1); exit }' <<<"$jl")
reverted=$(awk '/tcptune-revert-[0-9a-f]*(-s)?\.service: Deactivated/ { print int($1); exit }' <<<"$jl")
e2e_log "reverted by: $(grep -oE 'tcptune-revert-[0-9a-f]*(-s)?\.service: Deactivated' <<<"$jl" | head -n 1)"
assert_match "the journal has the timer and its service" \
    '^[0-9]+ [0-9]+$' "$armed $reverted"
if [[ -n $armed && -n $reverted ]]; then
	e2e_log "figure: revert ran $((reverted - armed)) s after it was armed (timeout $TIMEOUT s)"
	assert_lt "the host reverted within the timeout + 10 s" \
	    "$((reverted - armed))" "$((TIMEOUT + 10 + 1))"
	assert_lt "and not before the timeout" "$((TIMEOUT - 1))" \
	    "$((reverted - armed))"
fi
assert_eq "$h: answers again, tcp_adv_win_scale 1" 1 \
    "$(guest "$h" sysctl -n net.ipv4.tcp_adv_win_scale)"
snap "$h" harmful
# Without mtimes: a restored file is the same file, not the same inode.
sed 's/|[^|]*$//' "$E2E_TMP/$h.stock.files" >"$E2E_TMP/a.files"
sed 's/|[^|]*$//' "$E2E_TMP/$h.harmful.files" >"$E2E_TMP/b.files"
assert_same "$h: files as before (path, type, mode, sha256)" \
    "$E2E_TMP/a.files" "$E2E_TMP/b.files"
assert_same "$h: sysctl -a as before" "$E2E_TMP/$h.stock.sysctl" \
    "$E2E_TMP/$h.harmful.sysctl"
net_snap "$h" >"$E2E_TMP/net.harmful"
assert_same "$h: qdisc tree and routes as before" "$E2E_TMP/net.stock" \
    "$E2E_TMP/net.harmful"
assert_eq "$h: nothing of the revert left" "" "$(ours "$h")"

# ---- 2. check mode schedules nothing
t1=$(guest "$h" date +%s)
e2e_run 900 tt play "$DATA/harmful.yml" --confirm-timeout "$TIMEOUT" --check --diff "${SLOW[@]}"
figure "play --check (harmful)"
assert_rc "--check exits 0" 0
assert_match "--check shows the change" "tcp_adv_win_scale +1 -> -31" \
    "$RUN_OUT"
assert_eq "--check: no revert unit in the journal" "" \
    "$(journal_since "$h" "$t1")"
assert_eq "--check: nothing of ours" "" "$(ours "$h")"
assert_eq "--check: tcp_adv_win_scale still 1" 1 \
    "$(guest "$h" sysctl -n net.ipv4.tcp_adv_win_scale)"

# ---- 3. a harmless qdisc change, confirmed by default
e2e_run 900 tt play "$DATA/harmless.yml" -vv "${SLOW[@]}"
figure "play (harmless)"
assert_rc "harmless play exits 0" 0
assert_match "harmless play: confirmed from a new connection" \
    "^changed: \[$h\] => .*; confirmed from a new connection$" \
    "$(grep -E '^changed: ' <<<"$RUN_OUT")"
assert_eq "two connections: the play's and the confirm's" 2 \
    "$(grep -c "<$h> connect to " <<<"$RUN_ERR$RUN_OUT")"
assert_eq "$h: the revert cancelled: no timer, no unit, no state" "" \
    "$(ours "$h")"
assert_eq "$h: fq is the live root qdisc" fq \
    "$(guest "$h" tc qdisc show dev eth0 root | awk '{ print $2; exit }')"

e2e_log "took $SECONDS s"
e2e_finish
