#!/bin/bash
# cli-suggest.sh - --version/-V, and "did you mean" for a misspelt command,
# long option or module (issue 11, deliverable 2, in part). No host needed.
# Usage: cli-suggest.sh TCPTUNE
set -u
tcptune=${1:?usage: cli-suggest.sh TCPTUNE}
passed=0
failed=0

# expect DESC RC PATTERN ARGS...: tcptune ARGS exits RC and its stdout and
# stderr together match the extended regex PATTERN.
expect() {
	local desc=$1 want_rc=$2 pattern=$3 out rc
	shift 3
	out=$("$tcptune" "$@" 2>&1)
	rc=$?
	if [[ $rc == "$want_rc" ]] && grep -Eq -- "$pattern" <<<"$out"; then
		echo "ok: $desc"
		passed=$((passed + 1))
	else
		echo "FAIL: $desc (exit $rc, want $want_rc): $out"
		failed=$((failed + 1))
	fi
}

version="^tcptune [0-9]+\.[0-9]+\.[0-9]+$"
expect "--version" 0 "$version" --version
expect "-V" 0 "$version" -V
expect "version after a command" 0 "$version" ping --version
expect "a misspelt command" 1 \
    "^tcptune: error: unknown command 'plya' \(did you mean 'play'\?\)$" plya
expect "a word like no command" 1 \
    "^tcptune: error: unknown command 'xyzzy' \(see 'tcptune help'\)$" xyzzy
expect "a misspelt long option" 1 \
    "^tcptune: error: unknown option '--chek' \(did you mean '--check'\?\)$" \
    play --chek x.yml
expect "a misspelt option with a value" 1 \
    "^tcptune: error: unknown option '--invetory=h' \(did you mean '--inventory'\?\)$" \
    ping --invetory=h
expect "an unknown short option" 1 \
    "^tcptune: error: unknown option '-Q' \(see 'tcptune help'\)$" ping -Q
expect "a misspelt module" 1 \
    "^tcptune: error: unknown module 'tcp_bufers' \(did you mean 'tcp_buffers'\?\)$" \
    modules tcp_bufers
expect "a module like no module" 1 \
    "^tcptune: error: unknown module 'zzzzzzzz' \(see 'tcptune modules'\)$" \
    modules zzzzzzzz

# A misspelt parameter: of a module in a playbook (lint), of `size`, and of
# `verify` on the command line (bound before any host is contacted).
printf -- '- hosts: all\n  tasks:\n    - tcp_buffers: {bandwith_mbit: 100}\n' \
    >"${TMPDIR:-/tmp}/cli-suggest-$$.yml"
expect "a misspelt module parameter in a playbook" 1 \
    "unknown parameter 'bandwith_mbit' for module 'tcp_buffers' \(did you mean 'bandwidth_mbit'\?\)" \
    lint "${TMPDIR:-/tmp}/cli-suggest-$$.yml"
rm -f "${TMPDIR:-/tmp}/cli-suggest-$$.yml"
expect "a misspelt size key" 1 \
    "^tcptune: (error: )?size: unknown key 'bandwith_mbit' \(did you mean 'bandwidth_mbit'\?\)$" \
    size bandwith_mbit=100 rtt_ms=10 mem=1GiB
expect "a misspelt verify parameter" 1 \
    "unknown parameter 'durration' for module 'iperf3_verify' \(did you mean 'duration'\?\)" \
    verify -i 'a,' durration=3

echo "cli-suggest: $passed passed, $failed failed"
[[ $failed == 0 ]]
