#!/bin/bash
# cli-help.sh - every command's own help (issue 11, part 2): for each
# command and alias of cmd_table, `tcptune CMD --help` exits 0, differs from
# the global help, equals `tcptune help CMD`, names every option the parser
# accepts for CMD and no option the parser refuses for it. What CMD accepts
# is asked of the parser itself (`tcptune CMD --OPT [VALUE] --help` exits 0,
# or 1 with "does not apply"), over every long option of main.c's
# long_options, so the help is checked against the parser, not against the
# table it is printed from. Also: `help nosuch` gets a did-you-mean.
# No host needed. Usage: cli-help.sh TCPTUNE SOURCE_DIR
set -u
tcptune=${1:?usage: cli-help.sh TCPTUNE SOURCE_DIR}
src=${2:?usage: cli-help.sh TCPTUNE SOURCE_DIR}
# shellcheck source=tests/e2e/cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

# "name required_argument" for each row of main.c's long_options.
options=$(sed -n '/long_options\[\] = {/,/^};/p' "$src/cmd/tcptune/main.c" |
    tr -d '\n\t' | grep -oE '\{ *"[a-z-]+", *[a-z_]+' |
    sed -E 's/\{ *"([a-z-]+)", *([a-z_]+)/\1 \2/')
if [[ $(wc -l <<<"$options") -lt 30 ]]; then
	not_ok "read long_options from main.c (got: $options)"
fi

# A value each option's parser takes.
value_for() {
	case $1 in
	forks | timeout | command-timeout) echo 1 ;;
	confirm-timeout) echo 0 ;;
	host-key-checking) echo strict ;;
	format) echo text ;;
	color) echo auto ;;
	*) echo x ;;
	esac
}

global=$("$tcptune" --help)
commands=$("$tcptune" __complete commands | cut -f1)
[[ $(wc -l <<<"$commands") -ge 14 ]] || not_ok "the command list: $commands"
for cmd in $commands; do
	own=$("$tcptune" "$cmd" --help 2>&1)
	rc=$?
	[[ $rc == 0 ]] && ok "$cmd --help exits 0" ||
	    not_ok "$cmd --help exits $rc"
	[[ $own != "$global" ]] && ok "$cmd --help is not the global help" ||
	    not_ok "$cmd --help is the global help"
	grep -q "^usage: tcptune $cmd" <<<"$own" ||
	    grep -q "^   or: tcptune $cmd " <<<"$own" &&
	    ok "$cmd --help: its usage line" ||
	    not_ok "$cmd --help has no usage line of its own"
	grep -q '^Examples:' <<<"$own" && ok "$cmd --help: examples" ||
	    not_ok "$cmd --help has no examples"
	via_help=$("$tcptune" help "$cmd" 2>&1)
	[[ $via_help == "$own" ]] && ok "help $cmd == $cmd --help" ||
	    not_ok "help $cmd differs from $cmd --help"
	wrong=
	while read -r name has; do
		if [[ $has == required_argument ]]; then
			out=$("$tcptune" "$cmd" "--$name" "$(value_for "$name")" \
			    --help 2>&1)
		else
			out=$("$tcptune" "$cmd" "--$name" --help 2>&1)
		fi
		rc=$?
		named=0
		grep -Eq -- "--$name([^a-z-]|\$)" <<<"$own" && named=1
		if [[ $rc == 0 && $named == 0 ]]; then
			wrong+=" --$name(accepted,not named)"
		elif [[ $rc != 0 && $out == *"does not apply"* && $named == 1 ]]; then
			wrong+=" --$name(refused,named)"
		elif [[ $rc != 0 && $out != *"does not apply"* ]]; then
			wrong+=" --$name(rc=$rc:$out)"
		fi
	done <<<"$options"
	[[ -z $wrong ]] && ok "$cmd --help names exactly the options it accepts" ||
	    not_ok "$cmd --help:$wrong"
done

out=$("$tcptune" help plya 2>&1)
rc=$?
[[ $rc == 1 && $out == "tcptune: error: unknown command 'plya' (did you mean 'play'?)" ]] &&
    ok "help plya: did you mean" || not_ok "help plya: exit $rc: $out"
out=$("$tcptune" help nosuch 2>&1)
rc=$?
[[ $rc == 1 && $out == *"unknown command 'nosuch'"* ]] &&
    ok "help nosuch: unknown command" || not_ok "help nosuch: exit $rc: $out"
out=$("$tcptune" --help 2>&1)
rc=$?
[[ $rc == 0 && $out == *"Commands:"* && $out == *"rollback [PATTERN]"* ]] &&
    ok "--help is the command summary" || not_ok "--help: exit $rc"

# --format: version has a JSON form; help and inventory --graph are text
# only and say so (instead of ignoring the option).
out=$("$tcptune" version --format json 2>&1)
rc=$?
[[ $rc == 0 && $(jq -r '"\(.schema) \(.version)"' <<<"$out" 2>/dev/null) == "1 "* &&
    $("$tcptune" version) == "tcptune $(jq -r .version <<<"$out")" ]] &&
    ok "version --format json: schema and the version" ||
    not_ok "version --format json: exit $rc: $out"
out=$("$tcptune" help play --format json 2>&1)
rc=$?
[[ $rc == 1 && $out == "tcptune: error: help prints text only (no --format json)"* ]] &&
    ok "help --format json: refused, says why" ||
    not_ok "help --format json: exit $rc: $out"
inv=$(mktemp)
printf 'all:\n  hosts:\n    a:\n' >"$inv"
out=$("$tcptune" inventory -i "$inv" --graph --format json 2>&1)
rc=$?
[[ $rc == 1 && $out == *"--graph prints text only (no --format json); --list gives the inventory as JSON"* ]] &&
    ok "inventory --graph --format json: refused, points at --list" ||
    not_ok "inventory --graph --format json: exit $rc: $out"
rm -f "$inv"

cli_finish cli-help
