#!/bin/bash
# tune-restore-fail.sh - a rollback that cannot restore says so (issue 14,
# item 2): over a hand-written drop-in, `play` then a backup that cannot be
# read (a directory where the saved copy should be): `tcptune rollback`
# fails naming the file and the reason, the drop-in stays byte-identical
# (never emptied), the backup stays for a retry; once the backup is fixed,
# the rollback puts the hand-written bytes back.
# Usage: tune-restore-fail.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-restore-fail "${1:-}"
e2e_lab_up 1 t50 198.18.50

B=/var/lib/tcptune/backup/_etc_sysctl.d_90-tcptune.conf
HAND=$'# hand-written before tcptune\nnet.ipv4.tcp_wmem = 4096 16384 1048576\n'
# shellcheck disable=SC2016
lab lab01 sh -c 'printf "%s" "$1" >"$2"' sh "$HAND" "$DROPIN"
hand_sha=$(file_sha lab01 "$DROPIN")

e2e_run 40 tt play "$TUNE_PB" "${TUNE_VARS[@]}"
assert_rc "play over the hand-written file" 0
tuned_sha=$(file_sha lab01 "$DROPIN")
assert_eq "the saved copy is the hand-written file" "$hand_sha" \
    "$(file_sha lab01 "$B/orig")"

# The saved copy cannot be read: a directory in its place (root reads any
# mode, so a mode would not do).
lab lab01 sh -c "mv $B/orig $B/orig.kept && mkdir $B/orig"
e2e_run 40 tt rollback
assert_rc_bit "rollback with an unreadable backup fails the host" 2
assert_match "the message names the file, the backup and the reason" \
    "rollback of '$DROPIN' failed: cannot restore $DROPIN from $B/orig: Is a directory" \
    "$(cat "$E2E_TMP/out")"
assert_eq "no 'restored' claim" 0 "$(grep -c "restored '$DROPIN'" "$E2E_TMP/out")"
assert_eq "the drop-in is byte-identical (not emptied)" "$tuned_sha" \
    "$(file_sha lab01 "$DROPIN")"
expect_tuned lab01
assert_eq "no temp file left" "" "$(stray_files lab01)"

# Fixed, the same command restores the host.
lab lab01 sh -c "rmdir $B/orig && mv $B/orig.kept $B/orig"
e2e_run 40 tt rollback
assert_rc "rollback once the backup is readable" 0
assert_eq "the hand-written bytes are back" "$hand_sha" \
    "$(file_sha lab01 "$DROPIN")"
assert_eq "lab01: live tcp_rmem is stock" "$STOCK_RMEM" \
    "$(live lab01 net.ipv4.tcp_rmem)"
tune_finish
