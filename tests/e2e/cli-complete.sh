#!/bin/bash
# cli-complete.sh - the shell completions (contrib/completion/): sources
# the bash one in bash and checks COMPREPLY for a command prefix, option
# prefixes (each command's own), option values, module names, and host and
# group names of the inventory given with -i on the line; checks that an
# inventory script given to -i is not run and a URL is not fetched; and,
# where zsh is installed, the same for zsh's _tcptune (cli-complete.zsh
# stands in for the completion builtins). No host needed.
# Usage: cli-complete.sh TCPTUNE SOURCE_DIR
set -u
export LC_ALL=C
tcptune=${1:?usage: cli-complete.sh TCPTUNE SOURCE_DIR}
src=${2:?usage: cli-complete.sh TCPTUNE SOURCE_DIR}
# shellcheck source=tests/e2e/cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

PATH=$(cd "$(dirname "$tcptune")" && pwd):$PATH
# shellcheck source=/dev/null
. "$src/contrib/completion/tcptune.bash"
inv=$src/tests/data/inventory/good/patterns.yml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect DESC WANT WORD...: completing the last WORD of "tcptune WORD..."
# offers exactly WANT (sorted, space-separated).
expect() {
	local desc=$1 want=$2 got
	shift 2
	COMP_WORDS=(tcptune "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_tcptune
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd' ')
	if [[ $got == "$want" ]]; then
		ok "$desc"
	else
		not_ok "$desc: got '$got', want '$want'"
	fi
}

expect "a command prefix" "plan play playbook" pl
expect "every command" \
    "config drift help inventory lint modules ping plan play playbook probe rollback size verify version" ""
expect "a global option at the start" "--help --version" --
expect "play's options, not inventory's --list" \
    "--limit --list-hosts --list-tasks" play x.yml --li
expect "inventory's options, not play's --list-hosts" "--limit --list" \
    inventory --li
expect "size has no --report" "" size --rep
expect "verify has --report" "--report" verify --rep
expect "an option's choices" "json jsonl" play x.yml --format j
expect "an option's choices after '='" "always auto" play --color = a
expect "a module name" "tcp_buffers" modules tcp_b
# The KEY= words of size and verify, the same in both shells (key_cases
# expect, key_cases zexpect).
key_cases() {
	"$1" "size's keys" "ram_divisor= rmem_default= rtt_ms=" size r
	"$1" "size's keys: the host's facts too" "max_buffer= mem= mtu_probing=" size m
	"$1" "verify: hosts and iperf3_verify's keys" "d1 d2 db duration=" \
	    verify -i "$inv" d
	"$1" "ping: hosts only" "d1 d2 db" ping -i "$inv" d
}
key_cases expect
expect "size: nothing for a value (bash splits at '=')" "" size rtt_ms =
expect "size: nothing inside a value" "" size rtt_ms = 10
expect "help's argument: a command" "plan play" help pl
expect "hosts and groups from -i" "w1 w2 w3 web web_eu" ping -i "$inv" w
expect "hosts from --inventory=" "d1 d2 db" probe --inventory = "$inv" d
expect "hosts for -l, -i after the playbook" "g1 gcp" play x.yml -i "$inv" -l g
expect "a pattern's next part after ':'" "e1 e2" ping -i "$inv" web : e
expect "the file of -i" "$inv" ping -i "${inv%.yml}"

# An executable inventory is not run, a URL is not fetched.
printf '#!/bin/sh\ntouch %s/ran\necho "{\\"all\\": {\\"hosts\\": [\\"s1\\"]}}"\n' \
    "$tmp" >"$tmp/inv.sh"
chmod +x "$tmp/inv.sh"
start=$(date +%s)
expect "a script or URL inventory gives nothing" "" ping -i "$tmp/inv.sh" \
    -i http://127.0.0.1:9/inv s
[[ ! -e $tmp/ran ]] && ok "the inventory script was not run" ||
    not_ok "completion ran the inventory script"
(($(date +%s) - start < 5)) && ok "in under 5 s" || not_ok "took too long"
# Nor one inside a directory given to -i: its static files still count.
mkdir "$tmp/invdir"
mv "$tmp/inv.sh" "$tmp/invdir/inv.sh"
printf 'all:\n  hosts:\n    sd1:\n    sd2:\n' >"$tmp/invdir/static.yml"
expect "a directory: its static hosts, not its script's" "sd1 sd2" \
    ping -i "$tmp/invdir" s
[[ ! -e $tmp/ran ]] && ok "the script in the inventory directory was not run" ||
    not_ok "completion ran the script in the inventory directory"

# zsh: _tcptune with the completion builtins stood in for (cli-complete.zsh)
zexpect() {
	local desc=$1 want=$2 got
	shift 2
	got=$(zsh "$(dirname "$0")/cli-complete.zsh" "$src" "$@" 2>&1 | paste -sd' ')
	if [[ $got == "$want" ]]; then
		ok "zsh: $desc"
	else
		not_ok "zsh: $desc: got '$got', want '$want'"
	fi
}
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$src/contrib/completion/_tcptune" && ok "zsh: _tcptune parses" ||
	    not_ok "zsh -n _tcptune"
	zexpect "a command prefix" "plan play playbook" pl
	zexpect "play's options" "--limit --list-hosts --list-tasks" play x.yml --li
	zexpect "inventory's options" "--limit --list" inventory --li
	zexpect "size has no --report" "" size --rep
	zexpect "an option's choices after '='" "json jsonl" play --format=j
	zexpect "an option's choices" "always auto" play --color a
	zexpect "a module name" "tcp_buffers" modules tcp_b
	key_cases zexpect
	zexpect "size: nothing for a value" "" size rtt_ms=1
	zexpect "hosts and groups from -i" "w1 w2 w3 web web_eu" ping -i "$inv" w
	zexpect "a pattern's next part" "e1 e2" play x.yml -i "$inv" -l web:e
	zexpect "a playbook is a file" ":files" play x
else
	echo "zsh not installed: _tcptune not checked"
fi

cli_finish cli-complete
