#!/bin/bash
# jq programs and the sh -c script are in single quotes on purpose.
# shellcheck disable=SC2016
# fleet-become-pass.sh - become with a password (sudo -S): ttl-pw, whose sudo
# needs one, runs probe (its program on stdin) and ping as uid 0 with
# ansible_become_password (and its older spellings, in Ansible's order) and
# with -K typed on a pseudo-terminal; a wrong password fails every host with
# "incorrect sudo password ..." in a few seconds; ttl-sudo (NOPASSWD) with a
# password set never gets it on the command's stdin; the password appears in
# no output (text, -v, JSON) and on no command line on the hosts.
# Usage: fleet-become-pass.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-become-pass "${1:-}"
e2e_lab_up 3 e2w 198.18.226

n=${#HOSTS[@]}
# A password with the characters quoting gets wrong, new on every run. The
# lab users are the machine's, so this sets it for every lab; only this
# test relies on knowing it.
PW="pw'\"\$(id) \\ $(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
printf 'ttl-pw:%s\n' "$PW" | chpasswd || {
	echo "FAIL: chpasswd ttl-pw"
	exit 1
}
ALL_OUT=$E2E_TMP/all-output	# every output of tcptune, searched at the end

repeat() {
	local i out=
	for ((i = 0; i < n; i++)); do out+="$1 "; done
	echo "${out% }"
}

# inventory FILE USER [VAR=VALUE...]: the lab's hosts as USER with become
# on and the given vars for the group (a HOST:VAR=VALUE for one host),
# written as JSON (which YAML reads) so any password stays one value.
inventory() {
	local file=$1 user=$2 kv h i
	shift 2
	{
		printf '{"all":{"children":{"lab":{"hosts":{'
		for i in "${!HOSTS[@]}"; do
			h=${HOSTS[$i]}
			((i > 0)) && printf ','
			jq -cn --arg h "$h" --arg a "${LAB_ADDRS_ARR[$i]}" \
			    '{($h): {ansible_host: $a}}' | sed 's/^{//; s/}$//'
		done
		printf '},"vars":'
		jq -cn --arg u "$user" --arg k "$LAB_KEY" \
		    '{ansible_user: $u, ansible_become: true,
		      ansible_ssh_private_key_file: $k}'
		printf '}}}}\n'
	} >"$file"
	for kv in "$@"; do
		if [[ ${kv%%=*} == *:* ]]; then
			h=${kv%%:*}
			kv=${kv#*:}
			jq --arg h "$h" --arg k "${kv%%=*}" --arg v "${kv#*=}" \
			    '.all.children.lab.hosts[$h][$k] = $v' "$file"
		else
			jq --arg k "${kv%%=*}" --arg v "${kv#*=}" \
			    '.all.children.lab.vars[$k] = $v' "$file"
		fi >"$file.new" && mv "$file.new" "$file"
	done
}
read -r -a LAB_ADDRS_ARR <<<"$LAB_ADDRS"

# run SECS INVENTORY ARGS...: tcptune against the lab with that inventory;
# its output is kept for the final search for the password.
run() {
	local secs=$1 inv=$2
	shift 2
	e2e_run "$secs" "$TCPTUNE" "$@" -i "$inv" \
	    --known-hosts "$LAB_KNOWN_HOSTS" --no-color
	printf '%s\n%s\n' "$RUN_OUT" "$RUN_ERR" >>"$ALL_OUT"
}

uids() {
	jq_out '[.plays[0].results[][0].data.uid | tostring] | join(" ")'
}
statuses() {
	jq_out '[.plays[0].results[][0].status] | join(" ")'
}

# The lab hosts check sudo passwords through PAM and the machine's shadow:
# make sure before blaming tcptune.
got=$(lab "${HOSTS[0]}" runuser -u ttl-pw -- sh -c \
    'printf "%s\n" "$1" | sudo -S -p "" id -u' sh "$PW" 2>&1)
assert_eq "[lab] sudo -S as ttl-pw accepts the password set by chpasswd" \
    0 "$got" || { e2e_finish; }

inv_ok=$E2E_TMP/inv-ok.yml
inventory "$inv_ok" ttl-pw "ansible_become_password=$PW"

for cmd in probe ping; do
	run 60 "$inv_ok" "$cmd" --format json
	assert_rc "[ansible_become_password $cmd] exits 0" 0
	assert_eq "[ansible_become_password $cmd] ok on every host" \
	    "$(repeat ok)" "$(statuses)"
done
run 60 "$inv_ok" probe --format json
# The probe's program comes on stdin: it ran, after sudo took the password.
assert_eq "[ansible_become_password probe] facts gathered as uid 0" \
    "$(repeat 0)" "$(uids)"
run 60 "$inv_ok" ping -v
assert_rc "[ansible_become_password ping -v] exits 0" 0
assert_eq "[ansible_become_password ping -v] $n 'ok:' lines" "$n" \
    "$(grep -c '^ok: \[' <<<"$RUN_OUT")"
run 60 "$inv_ok" probe -vvv
assert_rc "[ansible_become_password probe -vvv] exits 0" 0

# Ansible's sudo plugin: ansible_sudo_pass over ansible_become_pass over
# ansible_become_password, whatever the level each is set at.
inv_order=$E2E_TMP/inv-order.yml
inventory "$inv_order" ttl-pw "ansible_become_password=wrong" \
    "ansible_become_pass=$PW" "${HOSTS[0]}:ansible_become_password=wrong2" \
    "${HOSTS[1]}:ansible_sudo_pass=$PW" "${HOSTS[1]}:ansible_become_pass=w3"
run 60 "$inv_order" ping --format json
assert_eq "[precedence] ansible_become_pass and ansible_sudo_pass win" \
    "$(repeat ok)" "$(statuses)"

# The password reaches sudo, never the command: `cat` sees an empty stdin,
# for ttl-pw (sudo asks) and for ttl-sudo (NOPASSWD: sudo does not ask).
play=$E2E_TMP/stdin.yml
cat >"$play" <<'EOF'
- hosts: all
  gather_facts: false
  tasks:
    - name: what the command gets on stdin, and who runs it
      shell:
        cmd: "printf '[%s]' \"$(cat)\"; id -u"
        safe: true
EOF
stdout_of() {
	jq_out --arg h "$1" '.plays[0].results[$h][0].data.stdout'
}
inv_nopw=$E2E_TMP/inv-nopw.yml
inventory "$inv_nopw" ttl-sudo "ansible_become_password=$PW"
for pair in "ttl-pw:$inv_ok" "ttl-sudo:$inv_nopw"; do
	u=${pair%%:*}
	run 60 "${pair#*:}" play "$play" --format json
	assert_rc "[$u stdin] play exits 0" 0
	assert_eq "[$u stdin] the command's stdin is empty and it ran as 0" \
	    "[]0" "$(stdout_of "${HOSTS[0]}")"
done
run 60 "$inv_nopw" probe --format json
assert_eq "[ttl-sudo with a password] probe as uid 0 on every host" \
    "$(repeat 0)" "$(uids)"

# A wrong password: every host fails with the message, in a few seconds
# (sudo pauses about 2 s before asking again; the command timeout is 60).
inv_bad=$E2E_TMP/inv-bad.yml
inventory "$inv_bad" ttl-pw "ansible_become_password=not-$PW"
for cmd in ping probe; do
	run 40 "$inv_bad" "$cmd" --format json --command-timeout 60
	assert_rc_bit "[wrong password $cmd] exit status has the failed bit" 2
	assert_lt "[wrong password $cmd] fails in bounded time" "$RUN_SECS" 8
	assert_eq "[wrong password $cmd] failed on every host" \
	    "$(repeat failed)" "$(statuses)"
	assert_eq "[wrong password $cmd] message" \
	    "incorrect sudo password for user 'ttl-pw' on host '${HOSTS[2]}'" \
	    "$(json_msg "${HOSTS[2]}")"
done
run 40 "$inv_bad" ping -vv
assert_match "[wrong password text] fatal line with the message" \
    "fatal: \[${HOSTS[0]}\]: FAILED! => .*incorrect sudo password for user 'ttl-pw'" \
    "$RUN_OUT"

# sudo refusing before it starts the command (requiretty, on one host: its
# /etc/sudoers.d is its own) is still told apart, prompt or not.
h3=${HOSTS[2]}
lab "$h3" sh -c 'echo "Defaults:ttl-pw requiretty" >/etc/sudoers.d/zz-tty &&
    chmod 0440 /etc/sudoers.d/zz-tty'
run 40 "$inv_ok" ping --format json
lab "$h3" rm -f /etc/sudoers.d/zz-tty
assert_eq "[requiretty on $h3] only it fails" "ok ok failed" "$(statuses)"
assert_eq "[requiretty on $h3] message" \
    "sudo on host '$h3' requires a tty (requiretty) for user 'ttl-pw'" \
    "$(json_msg "$h3")"

# -K on a pseudo-terminal (script(1)); the answer is typed once the prompt
# shows. pty_run ANSWER ARGS... sets RUN_RC, RUN_SECS, RUN_OUT (stdout
# file) and PTY_LOG (what the terminal showed).
pty_run() {
	local answer=$1 fifo=$E2E_TMP/pty-in pid i t0 line
	shift
	PTY_LOG=$E2E_TMP/pty.log
	rm -f "$fifo" "$PTY_LOG"
	mkfifo "$fifo"
	printf -v line '%q ' "$TCPTUNE" "$@" --known-hosts "$LAB_KNOWN_HOSTS" \
	    --no-color
	t0=$(now)
	SHELL=/bin/bash timeout -k 3 60 script -qfec \
	    "$line >$E2E_TMP/out 2>$E2E_TMP/err" "$PTY_LOG" <"$fifo" \
	    >/dev/null 2>&1 &
	pid=$!
	exec 3>"$fifo"
	for ((i = 0; i < 100; i++)); do
		grep -q 'BECOME password: ' "$PTY_LOG" 2>/dev/null && break
		sleep 0.1
	done
	printf '%s\r' "$answer" >&3
	wait "$pid"
	RUN_RC=$?
	exec 3>&-
	RUN_SECS=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	RUN_OUT=$(cat "$E2E_TMP/out")
	RUN_ERR=$(cat "$E2E_TMP/err")
	cat "$E2E_TMP/out" "$E2E_TMP/err" "$PTY_LOG" >>"$ALL_OUT"
	e2e_log "ran on a pty ($RUN_SECS s, exit $RUN_RC): $*"
}
inv_k=$E2E_TMP/inv-k.yml
inventory "$inv_k" ttl-pw
pty_run "$PW" probe -K -i "$inv_k" --format json
assert_rc "[-K] probe exits 0" 0
assert_match "[-K] the terminal showed ansible-playbook's prompt" \
    'BECOME password: ' "$(cat "$PTY_LOG")"
assert_eq "[-K] facts gathered as uid 0 on every host" "$(repeat 0)" "$(uids)"

# The inventory's password wins over -K's, host by host.
inv_k1=$E2E_TMP/inv-k1.yml
inventory "$inv_k1" ttl-pw "${HOSTS[0]}:ansible_become_password=$PW"
pty_run "wrong-$PW" ping -K -i "$inv_k1" --format json
assert_rc_bit "[-K wrong, inventory right on ${HOSTS[0]}] failed bit" 2
assert_eq "[-K wrong, inventory right on ${HOSTS[0]}] only it is ok" \
    "ok $(repeat failed | cut -d' ' -f2-)" "$(statuses)"
assert_eq "[-K wrong] message" \
    "incorrect sudo password for user 'ttl-pw' on host '${HOSTS[1]}'" \
    "$(json_msg "${HOSTS[1]}")"

# During a long command, the host's process list shows sudo's command line
# (our prompt and marker), never the password.
play_sleep=$E2E_TMP/sleep.yml
cat >"$play_sleep" <<'EOF'
- hosts: all
  gather_facts: false
  tasks:
    - name: long enough to be seen
      command:
        cmd: sleep 3
EOF
run 60 "$inv_ok" play "$play_sleep" -l "${HOSTS[0]}" >/dev/null &
runner=$!
: >"$E2E_TMP/ps"
for ((i = 0; i < 40; i++)); do
	ps -eo args >>"$E2E_TMP/ps"
	grep -q 'sudo -S -p' "$E2E_TMP/ps" && break
	sleep 0.1
done
ps -eo args >>"$E2E_TMP/ps"
wait "$runner"
assert_match "[ps] sudo -S with tcptune's prompt seen on the host" \
    'sudo -S -p \[sudo via tcptune, key=[0-9a-f]{16}\] password: ' \
    "$(grep 'sudo -S' "$E2E_TMP/ps")"
if grep -qF -- "$PW" "$E2E_TMP/ps"; then
	e2e_fail "[ps] the password is on a command line"
else
	e2e_ok "[ps] the password is on no command line"
fi

if grep -qF -- "$PW" "$ALL_OUT"; then
	e2e_fail "[output] the password appears in tcptune's output"
	grep -nF -- "$PW" "$ALL_OUT" | head -5 | sed 's/^/    | /'
else
	e2e_ok "[output] the password appears in no output (text, -v, -vv," \
	    "JSON, the terminal)"
fi
assert_match "[output] the search covered real runs" 'incorrect sudo password' \
    "$(cat "$ALL_OUT")"

e2e_finish
