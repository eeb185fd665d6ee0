#!/bin/bash
# cli-option-table.sh - the option table (cmd/tcptune/optdoc.c), which every
# help text, the man page and the completion print, has one row for each
# option main.c's parser takes, and no row for an option it does not take:
# long names from long_options, short ones from getopt_long's optstring, and
# a row has an argument exactly when the option is required_argument.
# No host needed. Usage: cli-option-table.sh TCPTUNE SOURCE_DIR
set -u
tcptune=${1:?usage: cli-option-table.sh TCPTUNE SOURCE_DIR}
main=${2:?usage: cli-option-table.sh TCPTUNE SOURCE_DIR}/cmd/tcptune/main.c
# shellcheck source=tests/e2e/cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

parsed=$(sed -n '/long_options\[\] = {/,/^};/p' "$main" | tr -d '\n\t' |
    grep -oE '\{ *"[a-z-]+", *[a-z_]+' |
    sed -E 's/\{ *"([a-z-]+)", *([a-z_]+)/\1 \2/')
optstring=$(grep -oE 'getopt_long\(argc, argv, "[^"]*"' "$main" |
    sed -E 's/.*"(.*)"/\1/')
table=$("$tcptune" __complete options)
if [[ $(wc -l <<<"$parsed") -lt 30 || -z $optstring ]]; then
	not_ok "could not read long_options or the optstring from $main"
fi

while read -r name has; do
	if grep -qx -- "--$name" <<<"$table"; then
		ok "--$name has a row"
	else
		not_ok "--$name is parsed (main.c long_options) but has no row in optdoc.c"
		continue
	fi
	value=$("$tcptune" __complete value -- "--$name")
	want_value=0 has_value=0
	[[ $has == required_argument ]] && want_value=1
	[[ -n $value ]] && has_value=1
	[[ $want_value == "$has_value" ]] ||
	    not_ok "--$name is $has but its row's value is '$value'"
done <<<"$parsed"
for word in $(grep -- '^--' <<<"$table"); do
	grep -q "^${word#--} " <<<"$parsed" ||
	    not_ok "$word has a row but main.c does not parse it"
done
# optstring: "+:i:l:..." -> each letter, ':' after it meaning an argument
letters=$(sed -E 's/^[+:]*//; s/://g' <<<"$optstring" | fold -w1)
for l in $letters; do
	grep -qx -- "-$l" <<<"$table" && ok "-$l has a row" ||
	    not_ok "-$l is parsed (optstring '$optstring') but has no row"
done
for word in $(grep -E -- '^-[^-]$' <<<"$table"); do
	grep -q "${word#-}" <<<"$letters" ||
	    not_ok "$word has a row but is not in the optstring"
done

cli_finish cli-option-table
