#!/usr/bin/env bash
# The INI, dynamic-JSON and host-range reproducers found by fuzzing
# (tests/data/fuzz-regress/ini-json/, and the large ones generated here like
# shared/bugs/fuzz/gen-large.py does), run through the built tcptune under
# `timeout 20` and a 2 GiB address-space limit: each ends with the expected
# exit status and exact message (with its position), never a crash, a hang
# or an allocation storm.
#
# usage: regress-inventory.sh TCPTUNE SRCDIR
set -u
tcptune=$1
data=$2/tests/data/fuzz-regress/ini-json
tmp=$(mktemp -d /tmp/tcptune-regress-inv.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# run NAME ARGS...: tcptune ARGS in $tmp, bounded; sets rc, out, err.
run() {
	local name=$1
	shift
	(cd "$tmp" && ulimit -v 2097152 && exec timeout 20 "$tcptune" "$@") \
	    >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	out=$(head -c 2000 "$tmp/$name.out")
	err=$(head -c 2000 "$tmp/$name.err")
}

check() {
	if [ "$2" = "$3" ]; then
		echo "ok - $1"
		passed=$((passed + 1))
	else
		echo "not ok - $1"
		echo "#   expected: $3"
		echo "#   got:      $2"
		failed=$((failed + 1))
	fi
}

# expect NAME RC MESSAGE ARGS...: exit status and the whole of stderr.
expect() {
	local name=$1 want_rc=$2 want_err=$3
	shift 3
	run "$name" "$@"
	check "$name: exit status" "$rc" "$want_rc"
	check "$name: message" "$err" "$want_err"
}

# expect_out NAME PATTERN: the output (its first 2000 bytes for big ones,
# else all of it) holds an extended regex.
expect_out() {
	if grep -Eq "$2" "$tmp/$1.out"; then
		check "$1: output" ok ok
	else
		check "$1: output" "$(head -c 300 "$tmp/$1.out")" "/$2/"
	fi
}

# A dynamic-inventory script that prints FILE for --list, {} for --host.
script_for() {
	# shellcheck disable=SC2016 # $1 is the script's own argument
	printf '#!/bin/sh\n[ "$1" = --list ] && exec cat %s\necho "{}"\n' \
	    "$1" >"$tmp/$2"
	chmod +x "$tmp/$2"
}

cp "$data"/* "$tmp/"
chmod u+w "$tmp"/*

# Diamond-shaped children: 2^24 paths, once walked one by one.
expect diamond-ini 0 "" inventory -i ini-children-diamond24.ini --list
expect_out diamond-ini '"c23"'
expect diamond-ini-graph 1 "tcptune: error: --graph of 'all' is over 64 MiB (groups \
reached by many paths are printed once per path)" \
    inventory -i ini-children-diamond24.ini --graph
expect diamond-ini-host 0 "" inventory -i ini-children-diamond24.ini \
    --host h1
script_for json-children-diamond24.json diamond.sh
expect diamond-json 0 "" inventory -i ./diamond.sh --list
expect_out diamond-json '"a24"'
# 40 diamonds deep (2^40 paths): the old search would not end.
awk 'BEGIN { for (i = 0; i < 40; i++)
    printf "[a%d:children]\nb%d\nc%d\n[b%d:children]\na%d\n[c%d:children]\na%d\n",
        i, i, i, i, i + 1, i, i + 1; print "[a40]\nh1" }' >"$tmp/diamond40.ini"
expect diamond40-ini 0 "" inventory -i diamond40.ini --host h1
awk 'BEGIN { printf "{\"a40\": [\"h1\"]"; for (i = 0; i < 40; i++)
    printf ", \"a%d\": {\"children\": [\"b%d\", \"c%d\"]}, \"b%d\": {\"children\": [\"a%d\"]}, \"c%d\": {\"children\": [\"a%d\"]}",
        i, i, i, i, i + 1, i, i + 1; print ", \"_meta\": {\"hostvars\": {}}}" }' \
    >"$tmp/diamond40.json"
script_for diamond40.json diamond40.sh
expect diamond40-json 0 "" inventory -i ./diamond40.sh --list
expect_out diamond40-json '"c39": \{'

# Host ranges near the 64-bit limits, and their product.
expect range-overflow-1 1 "tcptune: error: ini-range-overflow-1.ini:2: bad host \
range 'h[-9000000000000000000:9000000000000000000]': expands to more than \
100000 host names (the cap applies to the product of its ranges)" \
    inventory -i ini-range-overflow-1.ini --list
expect range-overflow-2 0 "" inventory -i ini-range-overflow-2.ini --graph
check "range-overflow-2: hosts" "$out" "@all:
  |--@ungrouped:
  |--@g:
  |  |--h0
  |  |--h9000000000000000000"
expect range-product 1 "tcptune: error: yaml-range-product.yml:3:5: bad host range \
'h[0:99999][0:99999][0:99999]': expands to more than 100000 host names (the \
cap applies to the product of its ranges)" \
    inventory -i yaml-range-product.yml --list

# A group priority beyond an int (UBSan: a double cast out of range).
printf 'web:\n  vars:\n    ansible_group_priority: 1.0e+300\n' \
    >"$tmp/priority.yml"
expect priority-range 1 "tcptune: error: priority.yml:3:5: ansible_group_priority \
of group 'web' must be an integer (from -2147483648 to 2147483647)" \
    inventory -i priority.yml --list

# 100,000 groups chained with :children (SIGSEGV in --list and lint).
awk 'BEGIN { print "[g0]\nh1"; for (i = 0; i < 99999; i++)
    printf "[g%d:children]\ng%d\n", i, i + 1; print "[g99999]\nh2" }' \
    >"$tmp/ini-chain-100000.ini"
expect ini-chain 0 "" inventory -i ini-chain-100000.ini --list
expect_out ini-chain '"g99998": \{'
expect ini-chain-host 0 "" inventory -i ini-chain-100000.ini --host h2
expect ini-chain-graph 1 "tcptune: error: --graph of 'all' is over 64 MiB (groups \
reached by many paths are printed once per path)" \
    inventory -i ini-chain-100000.ini --graph
awk 'BEGIN { print "[g99999:children]\ng0" }' >"$tmp/cycle.ini"
run ini-chain-cycle inventory -i ini-chain-100000.ini -i cycle.ini --list
check "ini-chain-cycle: exit status" "$rc" 1
check "ini-chain-cycle: message end" "$(tail -c 27 "$tmp/ini-chain-cycle.err")" \
    " -> g99998 -> g99999 -> g0"
err=${err%% -> g6*}
check "ini-chain-cycle: path" "$err" "tcptune: error: cycle.ini:2: group 'g0' is \
its own ancestor: g0 -> g1 -> g2 -> g3 -> g4 -> g5"

# The same chain from a dynamic inventory, listed bottom group first.
awk 'BEGIN { printf "{\"g100000\": {\"hosts\": [\"h1\"]}";
    for (i = 99999; i >= 0; i--)
    printf ", \"g%d\": {\"children\": [\"g%d\"]}", i, i + 1;
    print ", \"_meta\": {\"hostvars\": {}}}" }' >"$tmp/json-chain.json"
script_for json-chain.json chain.sh
expect json-chain 0 "" inventory -i ./chain.sh --list
expect_out json-chain '"g100000": \{'

# x=[[[...]]] 50,000 deep: Python stops at 200 levels, so it is a string.
awk 'BEGIN { s = "h1 x="; for (i = 0; i < 50000; i++) s = s "[";
    for (i = 0; i < 50000; i++) s = s "]"; print "[g]\n" s }' \
    >"$tmp/ini-deep-literal-50000.ini"
expect deep-literal 0 "" inventory -i ini-deep-literal-50000.ini --host h1
expect_out deep-literal '^ *"x": "\[\[\[\['

echo "# $passed passed, $failed failed"
[ "$failed" = 0 ]
