#!/bin/bash
# apply-confirm.sh - the host's own revert of an unconfirmed apply
# (lib/remote/confirm.sh before lib/remote/apply.sh, as apply_call sends
# them) under dash in a temporary root, on its detached-sleep timer (a test
# root never uses systemd): the revert runs by itself after CONFIRM seconds
# and leaves the drop-in, the live values and tcptune's backup as they
# were; a confirm from another call cancels it (the sleeper is gone, the
# change stays); a revert-now; an apply that changes nothing arms nothing;
# a pending revert refuses the next apply; a timer that fires before the
# due leaves it to the later one; a bad token is refused before anything
# changes.
set -uo pipefail
# shellcheck source=tests/shell/lib.sh
. "$(dirname "$0")/lib.sh"
sh_init apply-confirm

SCRIPT=$SH_TMP/confirm-apply.sh
cat "$SH_SRC/lib/remote/confirm.sh" "$APPLY_SH" >"$SCRIPT"
TOKEN=0123abcd0123abcd

# confirm_call MODE [CONFIRM [CANCEL]] : the combined script, stdin as
# INPUT; OUT holds the output. The revert program is the same script with
# MODE=revert, as apply_call builds it.
confirm_call() {
	local input='' revert
	[[ $1 == apply ]] && input=$(stdin_value; printf .)
	revert=$(program "$SCRIPT" MODE=revert FILE="$FILE" STATE="$STATE" \
	    QDISC= DEV= TXQ=0 MODULES= ROUTE= PROBE= PERSIST= TO= KEY= \
	    EXPECT= SETKV= WRITE= RELOAD= IGNORE= CONFIRM= TOKEN="$TOKEN" \
	    REVERT= CANCEL= INPUT=)
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call apply "$SCRIPT" \
	    MODE="$1" FILE="$FILE" STATE="$STATE" QDISC= DEV= TXQ=0 \
	    MODULES= ROUTE= PROBE= PERSIST= TO= KEY= EXPECT= SETKV= WRITE= \
	    RELOAD= IGNORE= CONFIRM="${2:-}" TOKEN="$TOKEN" REVERT="$revert" \
	    CANCEL="${3:-}" INPUT="${input%.}")
}

# The sleeper's pid, from the "how" file.
sleeper() {
	sed -n 's/^sleep //p' "$STATE/confirm/how" 2>/dev/null
}

# wait_for PATH SECONDS : until PATH exists.
wait_for() {
	local n=0
	while [ ! -e "$1" ] && ((n < $2 * 10)); do
		sleep 0.1
		n=$((n + 1))
	done
}

# gone PID : "gone" once PID has ended (a killed one within 2 s: it is
# reaped by whoever adopted it), else "alive".
gone() {
	local n=0
	while kill -0 "$1" 2>/dev/null && ((n < 20)); do
		sleep 0.1
		n=$((n + 1))
	done
	kill -0 "$1" 2>/dev/null && echo alive || echo gone
}

NEW='tcptune.test.a = 7
tcptune.test.b = 8'

# ---- 1. unconfirmed: the host reverts by itself
new_root timer
keep "$FILE"
confirm_call apply 2 <<<"$NEW"
assert_line "armed: a detached sleep" "how=sleep"
assert_line "armed after the change" "status=armed"
assert_eq "the change is live meanwhile" "7 8" \
    "$(cat "$R/proc/sys/tcptune/test/a") $(cat "$R/proc/sys/tcptune/test/b")"
assert_eq "the backup of the first apply exists meanwhile" yes \
    "$([ -d "$B" ] && echo yes)"
pid=$(sleeper)
assert_eq "the sleeper runs in a session of its own" "$pid" \
    "$(ps -o sid= -p "$pid" | tr -d ' ')"
t0=$SECONDS
wait_for "$STATE/confirm/done" 10
assert_eq "the revert ran within CONFIRM + 2 s" yes \
    "$([ -e "$STATE/confirm/done" ] && ((SECONDS - t0 <= 4)) && echo yes)"
same "$FILE" "drop-in after the revert"
assert_eq "live values after the revert" "1 1" \
    "$(cat "$R/proc/sys/tcptune/test/a") $(cat "$R/proc/sys/tcptune/test/b")"
assert_eq "no backup left (there was none before)" no \
    "$([ -e "$B" ] && echo yes || echo no)"
confirm_call confirm "" 1
assert_line "the confirm finds it reverted" "status=reverted"
assert_eq "the confirm says when" 1 "$(grep -c '^at=[0-9]\{10\}$' <<<"$OUT")"
assert_eq "and no error" "" "$(grep '^error=' <<<"$OUT")"
assert_eq "nothing of the revert is left" no \
    "$([ -e "$STATE/confirm" ] && echo yes || echo no)"

# ---- 2. confirmed: the revert is cancelled, the change stays
new_root cancel
printf 'tcptune.test.a = 3\n' >"$FILE"
mkdir -p "$B" && echo kept >"$B/orig"
keep "$B/orig"
confirm_call apply 2 <<<"$NEW"
pid=$(sleeper)
confirm_call confirm "" 1
assert_line "confirmed" "status=confirmed"
assert_eq "the confirm reads the drop-in back" 1 "$(grep -c '^dropin=[0-9]' <<<"$OUT")"
sleep 3
assert_eq "the sleeper is gone" gone "$(gone "$pid")"
assert_eq "the change stays" "7 8" \
    "$(cat "$R/proc/sys/tcptune/test/a") $(cat "$R/proc/sys/tcptune/test/b")"
assert_file "the new drop-in stays" "$FILE" "$NEW"
same "$B/orig" "the first backup"
assert_eq "nothing of the revert is left" no \
    "$([ -e "$STATE/confirm" ] && echo yes || echo no)"

# ---- 3. an answer lost: revert now
new_root now
confirm_call apply 60 <<<"$NEW"
pid=$(sleeper)
confirm_call confirm "" ""
assert_line "reverted now" "status=reverted"
assert_eq "live values put back" "1 1" \
    "$(cat "$R/proc/sys/tcptune/test/a") $(cat "$R/proc/sys/tcptune/test/b")"
assert_eq "the drop-in removed (there was none)" no \
    "$([ -e "$FILE" ] && echo yes || echo no)"
kill -TERM -- "-$pid" 2>/dev/null
assert_eq "the timer of a revert that ran does nothing more" no \
    "$([ -e "$STATE/confirm" ] && echo yes || echo no)"

# ---- 4. nothing changed live: nothing armed
new_root off
printf '%s\n' "$NEW" >"$FILE"
echo 7 >"$R/proc/sys/tcptune/test/a"
echo 8 >"$R/proc/sys/tcptune/test/b"
confirm_call apply 30 <<<"$NEW"
assert_line "nothing to confirm" "status=off"
assert_eq "no revert pending" no \
    "$([ -e "$STATE/confirm" ] && echo yes || echo no)"

# ---- 5. a pending revert refuses the next apply
new_root pending
confirm_call apply 30 <<<"$NEW"
pid=$(sleeper)
keep "$FILE"
confirm_call apply 30 <<<'tcptune.test.a = 9'
assert_eq "refused while one is pending" 1 \
    "$(grep -c '^error=a revert of an earlier unconfirmed apply is pending' <<<"$OUT")"
assert_no_line "no write" "status=written"
same "$FILE" "drop-in untouched by the refused apply"
assert_eq "key untouched" 7 "$(cat "$R/proc/sys/tcptune/test/a")"
confirm_call confirm "" 1
assert_line "the first one still confirms" "status=confirmed"
assert_eq "its sleeper is gone" gone "$(gone "$pid")"

# ---- 6. a timer that fires before the due (the arm's, when the apply was
# slow and the settle started the timeout again) leaves it to the later one
new_root early
confirm_call apply 30 <<<"$NEW"
pid=$(sleeper)
(cd "$R" && TCPTUNE_TEST_ROOT=$R dash "$STATE/confirm/revert" >/dev/null)
assert_eq "an early revert does nothing" "7 no no" \
    "$(cat "$R/proc/sys/tcptune/test/a") $([ -e "$STATE/confirm/done" ] && echo yes || echo no) $([ -e "$STATE/confirm/lock" ] && echo yes || echo no)"
echo "$(($(date +%s) - 1))" >"$STATE/confirm/due"
(cd "$R" && TCPTUNE_TEST_ROOT=$R dash "$STATE/confirm/revert" >/dev/null)
assert_eq "a revert at its due reverts" "1 yes" \
    "$(cat "$R/proc/sys/tcptune/test/a") $([ -e "$STATE/confirm/done" ] && echo yes || echo no)"
kill -TERM -- "-$pid" 2>/dev/null

# ---- 7. a token that is not ours is refused before any change
new_root token
TOKEN='1; touch x'
confirm_call apply 30 <<<"$NEW"
assert_eq "refused" 1 "$(grep -c "^error=refused revert token" <<<"$OUT")"
assert_eq "nothing changed" "1 no" \
    "$(cat "$R/proc/sys/tcptune/test/a") $([ -e "$FILE" ] && echo yes || echo no)"
TOKEN=0123abcd0123abcd

sh_finish
