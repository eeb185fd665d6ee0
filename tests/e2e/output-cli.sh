#!/bin/bash
# output-cli.sh - the output discipline where no host is needed
# (docs/output.md): "schema" in the JSON of lint, modules, size and config;
# the error, usage-error and warning forms; colour of an error on a pipe by
# --color; the run log of a command that contacts nothing (mode 0600, start
# and end events, appended; refused when world-readable; an unopenable log
# stops the command before it does anything).
# Usage: output-cli.sh TCPTUNE. Run from the source tree.
# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
tcptune=${1:?usage: output-cli.sh TCPTUNE}
tmp=$(mktemp -d /tmp/tcptune-output-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset NO_COLOR TCPTUNE_LOG_FILE ANSIBLE_LOG_PATH ANSIBLE_NOCOLOR \
    ANSIBLE_FORCE_COLOR TCPTUNE_INVENTORY ANSIBLE_INVENTORY
export ANSIBLE_CONFIG=$tmp/none.cfg
: >"$ANSIBLE_CONFIG"
passed=0 failed=0
ESC=$'\033'

ok() { echo "ok - $*"; passed=$((passed + 1)); }
bad() { echo "not ok - $*"; failed=$((failed + 1)); }
# eq DESC WANT GOT
eq() {
	if [[ $2 == "$3" ]]; then ok "$1"; else
		bad "$1"
		printf '    want: %s\n    got:  %s\n' "$2" "$3"
	fi
}
# run ARGS...: sets out, err, rc
run() {
	"$tcptune" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

inv=inventory-examples/fleet.yml
good=playbooks/wan-tuning.yml
broken=tests/data/playbooks/bad/01-broken-yaml.yml

# "schema" in each document
run lint -i "$inv" "$good" --format json
eq "lint json: schema 1, ok, the inventory's counts" "1 true 0 16" \
    "$(jq -r '"\(.schema) \(.playbooks[0].ok) \(.errors) \(.inventory.hosts)"' <<<"$out")"
run lint "$good" "$broken" --format json
eq "lint json with an error: exit 1" 1 "$rc"
eq "lint json with an error: counted, named with file:line:col" \
    "1 false $broken:4:1:" \
    "$(jq -r '"\(.errors) \(.playbooks[1].ok) \(.playbooks[1].errors[0] | split(" ")[0])"' <<<"$out")"
eq "lint json: nothing on stderr" "" "$err"
run modules --format json
eq "modules json: schema 1, every module" "1 $("$tcptune" modules | wc -l)" \
    "$(jq -r '"\(.schema) \(.modules | length)"' <<<"$out")"
run modules tcp_buffers --format json
eq "modules NAME json: its parameters" "1 tcp_buffers bandwidth_mbit" \
    "$(jq -r '"\(.schema) \(.modules[0].name) \(.modules[0].params | map(.name) | index("bandwidth_mbit") | if . then "bandwidth_mbit" else "none" end)"' <<<"$out")"
run size bandwidth_mbit=500 rtt_ms=105 mem=1GiB --format json
eq "size json: schema 1 and the planned keys" "1 4096 131072 16777216" \
    "$(jq -r '"\(.schema) \(.sysctl["net.ipv4.tcp_rmem"])"' <<<"$out")"
eq "size json: the drop-in text is the text form's" \
    "$("$tcptune" size bandwidth_mbit=500 rtt_ms=105 mem=1GiB | sed 1d)" \
    "$(jq -r .dropin <<<"$out")"
run config --format json
eq "config json: schema 1 first" "schema" "$(jq -r 'keys_unsorted[0]' <<<"$out")"

# message forms
run play
eq "usage error: exit 1" 1 "$rc"
eq "usage error: what, the usage, where the help is" \
    "tcptune: error: play takes 1 argument, not 0
usage: tcptune play PLAYBOOK [-C] [-D] [--detailed-exitcode]
see 'tcptune play --help'" "$err"
run lint
eq "lint without arguments: a usage error" \
    "tcptune: error: lint needs a playbook or -i INVENTORY" \
    "$(head -n 1 <<<"$err")"
run ping -i "$tmp/missing.yml"
eq "error form" "tcptune: error: " "${err:0:16}"
run ping -i "$tmp/missing.yml" --color=always
eq "--color=always: the error red, on a pipe" "${ESC}[31mtcptune: error: " \
    "${err:0:21}"
printf 'lab:\n  hosts:\n    a:\n  hosts:\n    b:\n' >"$tmp/dup.yml"
run lint -i "$tmp/dup.yml"
eq "a warning: [WARNING]: once, file:line:col" \
    "[WARNING]: $tmp/dup.yml:4:3: duplicate key 'hosts': only the last value is used, as in Ansible" \
    "$err"

# the run log of a command that contacts nothing
log=$tmp/run.log
run lint "$good" --log-file "$log"
eq "log: created 0600" 600 "$(stat -c %a "$log")"
eq "log: start and end, with the user and the exit status" \
    "start $(id -un) lint $good --log-file $log|end $(id -un) 0" \
    "$(jq -r --arg t "$tcptune " '"\(.event) \(.user) \(.command_line //
        .exit_status | tostring | ltrimstr($t))"' "$log" | paste -sd'|')"
run lint "$broken" --log-file "$log"
eq "log: appended, the failed run's exit status 1" "4 1" \
    "$(wc -l <"$log") $(jq -r 'select(.event == "end") | .exit_status' "$log" | tail -n 1)"
TCPTUNE_LOG_FILE=$tmp/env.log run modules
eq "log: TCPTUNE_LOG_FILE" 2 "$(wc -l <"$tmp/env.log")"
chmod 604 "$log"
run lint "$good" --log-file "$log"
eq "log: world-readable: refused, nothing linted" \
    "1 tcptune: error: log file '$log' is readable or writable by every user: 'chmod o-rw' it first|" \
    "$rc $err|$out"
run lint "$good" --log-file "$tmp/no/dir/run.log"
eq "log: cannot be opened: exit 1, said, nothing linted" \
    "1 tcptune: error: cannot open log file '$tmp/no/dir/run.log': No such file or directory|" \
    "$rc $err|$out"
run config --log-file "$tmp/no/dir/run.log"
eq "log: config still works (it is where log_path is looked into)" 0 "$rc"

echo "# $passed passed, $failed failed"
((failed == 0))
