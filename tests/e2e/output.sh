#!/bin/bash
# output.sh - the output discipline of issue 11 (docs/output.md) on a lab of
# two hosts: a transport warning once, as "[WARNING]: HOST: text", in text,
# in JSON ("warnings") and as jsonl events; "schema" in each command's
# JSON; colour by --color and NO_COLOR (on a pseudo-terminal: an empty
# NO_COLOR keeps colour, "1" turns it off; --color=always on a pipe) and a
# coloured --diff; what -v, -vv and -vvv add; the run log (--log-file,
# TCPTUNE_LOG_FILE, ANSIBLE_LOG_PATH, ansible.cfg log_path): mode 0600,
# appended, one JSON event a line with the user, a clear error before any
# host when it cannot be opened, and no secret in it (a vaulted var, a -K
# password typed on a pty, a webhook URL).
# Usage: output.sh [TCPTUNE]. Exit 77 when not root or without
# ansible-vault (which makes the vaulted var).
# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
if ! command -v ansible-vault >/dev/null 2>&1 ||
    ! command -v script >/dev/null 2>&1; then
	echo "output: SKIP: ansible-vault or script(1) not installed"
	exit 77
fi
e2e_init output "${1:-}"
e2e_lab_up 2 out 198.18.171
n=${#HOSTS[@]}
ESC=$'\033'
W=$E2E_TMP/w
mkdir -p "$W"
export ANSIBLE_HOME=$W/home ANSIBLE_LOCAL_TEMP=$W/home/tmp
unset NO_COLOR TCPTUNE_LOG_FILE ANSIBLE_LOG_PATH ANSIBLE_NOCOLOR \
    ANSIBLE_FORCE_COLOR
export ANSIBLE_CONFIG=$W/none.cfg	# no ansible.cfg from elsewhere
: >"$ANSIBLE_CONFIG"

# The play with its vaulted var (ansible-vault, password file of
# tests/data/vault/), and the secrets no log may hold.
VAULT_PASS=$E2E_SRC/tests/data/vault/default.pass
TOKEN=tok-$(head -c 9 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
PB=$W/output.yml
CONF=$W/sysctl/lowat.conf	# the lab hosts share the controller's /tmp
mkdir -p "$W/sysctl"
{
	sed -n '/^- name:/,/gather_facts/p' "$E2E_SRC/tests/data/output/output.yml"
	echo "  vars:"
	ansible-vault encrypt_string --vault-password-file "$VAULT_PASS" \
	    "$TOKEN" --name play_token 2>/dev/null | sed 's/^/    /'
	echo
	sed -n '/^  tasks:/,$p' "$E2E_SRC/tests/data/output/output.yml" |
	    sed "s|CONF_FILE|$CONF|"
} >"$PB"

# --- A: a transport warning, once, in every form
e2e_run 30 tt ping --host-key-checking off
assert_rc "A: ping with host key checking off" 0
assert_eq "A: text: one [WARNING] per host" "$n" \
    "$(grep -c '^\[WARNING\]: lab0[12]: host key checking is OFF for ' <<<"$RUN_ERR")"
assert_eq "A: text: WARNING said once per line" 0 \
    "$(grep -c 'WARNING.*WARNING' <<<"$RUN_ERR")"
e2e_run 30 tt ping --host-key-checking off --format json
assert_eq "A: json: schema 1" 1 "$(jq_out '.schema')"
assert_eq "A: json: one warning per host" "${HOSTS[*]}" \
    "$(jq_out '[.warnings[] | select(.msg | startswith("host key checking is OFF")) | .host] | sort | join(" ")')"
assert_eq "A: json: nothing on stderr" "" "$RUN_ERR"
e2e_run 30 tt ping --host-key-checking off --format jsonl
assert_eq "A: jsonl: one warning event per host" "$n" \
    "$(jq -r 'select(.event == "warning") | .host' <<<"$RUN_OUT" | wc -l)"
: >"$W/known_hosts"
e2e_run 30 "$TCPTUNE" ping -i "$LAB_INVENTORY" --known-hosts "$W/known_hosts" \
    --host-key-checking accept-new --format json
assert_eq "A: accept-new: the learnt keys in the JSON warnings" "$n" \
    "$(jq_out '[.warnings[] | select(.msg | startswith("recorded new host key"))] | length')"

# --- B: "schema" in each command's JSON; inventory --list stays
# ansible-inventory's shape
for c in ping probe "play $PB" "plan $PB" "drift $PB" "play $PB --list-hosts"; do
	# shellcheck disable=SC2086 # the command and its playbook
	e2e_run 60 tt $c --format json --vault-password-file "$VAULT_PASS"
	assert_eq "B: $c --format json: schema 1" 1 "$(jq_out '.schema')"
done
e2e_run 10 tt inventory --list --format json
assert_eq "B: inventory --list: no schema key (ansible-inventory's shape)" \
    false "$(jq_out 'has("schema")')"

# --- C: colour
pty() {
	# pty VAR=VALUE... -- ARGS: tcptune on a pseudo-terminal (script(1))
	local env=()
	while [[ $1 != -- ]]; do env+=("$1"); shift; done
	shift
	printf -v line '%q ' "$TCPTUNE" "$@" -i "$LAB_INVENTORY" \
	    --known-hosts "$LAB_KNOWN_HOSTS"
	env "${env[@]}" timeout -k 3 60 script -qfec "$line" /dev/null \
	    </dev/null >"$E2E_TMP/pty.out" 2>&1
}
pty NO_COLOR= -- ping
assert_eq "C: a terminal with NO_COLOR='': coloured" 1 \
    "$(grep -c "${ESC}\[32mok: \[${HOSTS[0]}\]" "$E2E_TMP/pty.out")"
pty NO_COLOR=1 -- ping
assert_eq "C: a terminal with NO_COLOR=1: no ANSI colour" 0 \
    "$(grep -c "${ESC}\[3[0-9]m" "$E2E_TMP/pty.out")"
pty NO_COLOR=1 -- ping --color=always
assert_eq "C: --color=always wins over NO_COLOR" 1 \
    "$(grep -c "${ESC}\[32mok: \[${HOSTS[0]}\]" "$E2E_TMP/pty.out")"
pty ANSIBLE_NOCOLOR=1 -- ping
assert_eq "C: ANSIBLE_NOCOLOR=1 on a terminal: no ANSI colour" 0 \
    "$(grep -c "${ESC}\[3[0-9]m" "$E2E_TMP/pty.out")"
e2e_run 30 "$TCPTUNE" ping -i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS"
assert_eq "C: a pipe: no ANSI codes" 0 "$(grep -c "$ESC" <<<"$RUN_OUT")"
e2e_run 30 "$TCPTUNE" ping -i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" \
    --color=always
assert_eq "C: --color=always on a pipe: ANSI codes" "$n" \
    "$(grep -c "^${ESC}\[32mok: " <<<"$RUN_OUT")"
rm -f "$CONF"	# B's play wrote it: the plan must have a change to show
e2e_run 60 "$TCPTUNE" plan "$PB" -i "$LAB_INVENTORY" --known-hosts \
    "$LAB_KNOWN_HOSTS" --vault-password-file "$VAULT_PASS" --color=always
assert_eq "C: --diff: +++ header bold" "$n" \
    "$(grep -c "^${ESC}\[1m+++ $CONF${ESC}\[0m$" <<<"$RUN_OUT")"
assert_eq "C: --diff: @@ cyan" "$n" "$(grep -c "^${ESC}\[36m@@ " <<<"$RUN_OUT")"
assert_eq "C: --diff: + line green" "$n" \
    "$(grep -c "^${ESC}\[32m+net.ipv4.tcp_notsent_lowat *= *16384${ESC}\[0m$" <<<"$RUN_OUT")"
e2e_run 60 tt plan "$PB" --vault-password-file "$VAULT_PASS"
assert_eq "C: --diff without colour: plain + line" "$n" \
    "$(grep -c '^+net.ipv4.tcp_notsent_lowat *= *16384$' <<<"$RUN_OUT")"

# --- D: -v levels (docs/output.md, "How much: -v, -vv, -vvv")
e2e_run 60 tt play "$PB" --vault-password-file "$VAULT_PASS"
assert_eq "D: no -v: no trace" 0 "$(grep -c '^<' <<<"$RUN_ERR")"
assert_eq "D: no -v: a skipped task without its reason" "$n" \
    "$(grep -c '^skipping: \[lab0[12]\]$' <<<"$RUN_OUT")"
e2e_run 60 tt play "$PB" --vault-password-file "$VAULT_PASS" -v
assert_eq "D: -v: a skipped task's reason" "$n" \
    "$(grep -c '^skipping: \[lab0[12]\] => condition was false$' <<<"$RUN_OUT")"
assert_eq "D: -v: no trace" 0 "$(grep -c '^<' <<<"$RUN_ERR")"
e2e_run 60 tt play "$PB" --vault-password-file "$VAULT_PASS" -vv
for h in "${HOSTS[@]}"; do
	assert_match "D: -vv $h: connect time" \
	    "<$h> connect to '$h' \([0-9.:]+\) \(TCP, banner, key exchange\): [0-9.]+s" "$RUN_ERR"
	assert_match "D: -vv $h: host key and authentication times" \
	    "<$h> authentication as '[a-z-]+': ok, [0-9.]+s" "$RUN_ERR"
	assert_match "D: -vv $h: the command line sent, the vaulted var redacted" \
	    "<$h> exec: 'echo' 'token=<vaulted>'" "$RUN_ERR"
	assert_match "D: -vv $h: each task's time" \
	    "<$h> task 'echo the token': ok, [0-9.]+s" "$RUN_ERR"
done
assert_eq "D: -vv: no libssh log" 0 "$(grep -c '<lab0[12]> .*ssh_connect' <<<"$RUN_ERR")"
if grep -qF "$TOKEN" <<<"$RUN_OUT$RUN_ERR"; then
	e2e_fail "D: -vv shows the vaulted token"
else
	e2e_ok "D: -vv never shows the vaulted token"
fi
e2e_run 60 tt ping -vvv
assert_match "D: -vvv: libssh's log, with the host" \
    "<${HOSTS[0]}> .*ssh_connect: " "$RUN_ERR"

# --- E: the run log
LOG=$W/logs/run.log
mkdir -p "$W/logs"
e2e_run 60 tt play "$PB" --vault-password-file "$VAULT_PASS" --log-file "$LOG"
assert_rc "E: play with --log-file" 0
assert_eq "E: created 0600" 600 "$(stat -c %a "$LOG")"
assert_eq "E: every line a JSON event with schema, timestamp, pid and user" \
    "$(wc -l <"$LOG")" \
    "$(jq -c --arg u "$(id -un)" 'select(.schema == 1 and (.timestamp | test("Z$")) and .pid > 0 and .user == $u)' "$LOG" | wc -l)"
assert_eq "E: events of the run in order" \
    "start play_start task_start host_result host_result task_start host_result host_result task_start host_result host_result recap end" \
    "$(jq -r .event "$LOG" | tr '\n' ' ' | sed 's/ $//')"
assert_match "E: the command line" "play $PB .*--log-file $LOG" \
    "$(jq -r 'select(.event == "start") | .command_line' "$LOG")"
e2e_run 60 tt ping --log-file "$LOG"
assert_eq "E: a second run appends" 2 "$(jq -r 'select(.event == "start")' "$LOG" | grep -c '"start"')"
e2e_run 30 tt ping --host-key-checking off --log-file "$LOG"
assert_eq "E: the warnings in the log" "$n" \
    "$(jq -r 'select(.event == "warning") | .host' "$LOG" | wc -l)"
rm -f "$LOG"
TCPTUNE_LOG_FILE=$W/env.log ANSIBLE_LOG_PATH=$W/ansible.log e2e_run 30 tt ping
assert_eq "E: TCPTUNE_LOG_FILE wins over ANSIBLE_LOG_PATH" "yes no" \
    "$([[ -s $W/env.log ]] && echo yes || echo no) $([[ -e $W/ansible.log ]] && echo yes || echo no)"
ANSIBLE_LOG_PATH=$W/ansible.log e2e_run 30 tt ping --log-file "$LOG"
assert_eq "E: --log-file wins over the variables" "yes no" \
    "$([[ -s $LOG ]] && echo yes || echo no) $([[ -e $W/ansible.log ]] && echo yes || echo no)"
printf '[defaults]\nlog_path = logs/cfg.log\n' >"$W/ansible.cfg"
ANSIBLE_CONFIG=$W/ansible.cfg e2e_run 30 tt ping
assert_eq "E: ansible.cfg log_path, relative to the file" 1 \
    "$(jq -r 'select(.event == "recap")' "$W/logs/cfg.log" | grep -c '"recap"')"
e2e_run 30 tt ping -vv --log-file "$W/no/such/dir/run.log"
assert_rc "E: a log that cannot be opened: exit 1" 1
assert_eq "E: ... a clear error" \
    "tcptune: error: cannot open log file '$W/no/such/dir/run.log': No such file or directory" \
    "$RUN_ERR"
assert_eq "E: ... before any host (no PLAY line)" "" "$RUN_OUT"
touch "$W/open.log" && chmod 644 "$W/open.log"
e2e_run 30 tt ping --log-file "$W/open.log"
assert_rc "E: a world-readable log: exit 1" 1
assert_match "E: ... says so" "log file '$W/open.log' is readable or writable by every user" "$RUN_ERR"

# Secrets: the vaulted var (above), a -K password typed on a pty, a
# webhook URL: none in the log.
SECRET_LOG=$W/secret.log
e2e_run 60 tt play "$PB" --vault-password-file "$VAULT_PASS" -vv \
    --log-file "$SECRET_LOG"
assert_rc "E: play with a vaulted var, -vv, logged" 0
PW="pw-$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
printf 'ttl-pw:%s\n' "$PW" | chpasswd || e2e_fail "chpasswd ttl-pw"
INV_K=$W/inv-k.yml
jq -n --arg k "$LAB_KEY" --argjson hosts "$(
    for i in "${!HOSTS[@]}"; do
	    jq -n --arg h "${HOSTS[$i]}" --arg a "$(cut -d' ' -f$((i + 1)) <<<"$LAB_ADDRS")" \
		'{($h): {ansible_host: $a}}'
    done | jq -s add)" \
    '{all: {children: {lab: {hosts: $hosts, vars: {ansible_user: "ttl-pw",
      ansible_become: true, ansible_ssh_private_key_file: $k}}}}}' >"$INV_K"
fifo=$W/pty-in
mkfifo "$fifo"
printf -v line '%q ' "$TCPTUNE" ping -K -vv -i "$INV_K" --known-hosts \
    "$LAB_KNOWN_HOSTS" --log-file "$SECRET_LOG" --format json
timeout -k 3 60 script -qfec "$line >$W/k.out 2>$W/k.err" "$W/k.pty" \
    <"$fifo" >/dev/null 2>&1 &
pid=$!
exec 3>"$fifo"
for ((i = 0; i < 100; i++)); do
	grep -q 'BECOME password: ' "$W/k.pty" 2>/dev/null && break
	sleep 0.1
done
printf '%s\r' "$PW" >&3
wait "$pid"
exec 3>&-
assert_eq "E: -K ping ok on every host (the password was used)" \
    "ok ok" "$(jq -r '[.plays[0].results[][0].status] | join(" ")' "$W/k.out")"
HOOK="http://127.0.0.1:9/hooks/T0/B0/$(head -c 9 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
e2e_run 60 tt drift "$PB" --vault-password-file "$VAULT_PASS" \
    --webhook "$HOOK" --log-file "$SECRET_LOG"
assert_match "E: drift's webhook failed (logged as an error)" \
    "webhook not delivered" "$(jq -r 'select(.event == "error") | .msg' "$SECRET_LOG")"
assert_eq "E: the log has the three runs" 3 \
    "$(jq -r 'select(.event == "end") | .event' "$SECRET_LOG" | wc -l)"
for s in "$TOKEN" "$PW" "${HOOK##*/}"; do
	if grep -qF -- "$s" "$SECRET_LOG"; then
		e2e_fail "E: secret '$s' is in the log"
	else
		e2e_ok "E: secret '${s:0:6}...' is not in the log"
	fi
done
assert_match "E: the log shows <vaulted> where the token was" \
    "'token=<vaulted>'" "$(cat "$SECRET_LOG")"
assert_match "E: the webhook URL is <redacted> in the command line" \
    "--webhook <redacted>" "$(jq -r 'select(.event == "start") | .command_line' "$SECRET_LOG")"

e2e_finish
