#!/bin/bash
# apply-qdisc.sh - lib/remote/apply.sh's live qdisc on every interface that
# carries the traffic, under dash, against a tc stub that keeps each
# device's qdiscs as the kernel would show them (a root of the kernel's own
# is handle 0:; deleting ours gives the kernel's default back; an mq root's
# leaves are per queue):
#   1. QDISC=fq on DEV="eth0 eth1" (TXQ "0 2"): fq at eth0's root, mq 1:
#      with fq on both of eth1's queues, a @qdisc section each, the first
#      backup holding each interface's tc lines (qdisc@eth0, qdisc@eth1);
#   2. a later apply on eth2, which the first backup lacks: its lines are
#      saved beside the others before it is changed, the others kept;
#   3. an error on one interface names it, and the others are still set;
#   4. rollback gives every interface its tc lines back, exactly.
set -uo pipefail
# shellcheck source=tests/shell/lib.sh
. "$(dirname "$0")/lib.sh"
sh_init apply-qdisc

# The tc stub: $R/qd/DEV is DEV's `tc qdisc show` output, $R/qd/DEV.txq its
# queue count; a "dev fail0" refuses every change.
# shellcheck disable=SC2016 # the stub's own variables
TC_STUB='
qd=$TCPTUNE_TEST_ROOT/qd
[ "$1 $2" = "qdisc show" ] && [ "$3" = dev ] && { cat "$qd/$4"; exit 0; }
[ "$1" = qdisc ] || exit 2
op=$2 dev=$4
shift 4
[ "$dev" = fail0 ] && { echo "Error: Exclusivity flag on, cannot modify." >&2; exit 2; }
n=$(cat "$qd/$dev.txq" 2>/dev/null || echo 1)
boot() {	# what the kernel attaches by itself
	if [ "$n" -gt 1 ]; then
		echo "qdisc mq 0: root"
		i=$n
		while [ $i -ge 1 ]; do echo "qdisc fq_codel 0: parent :$i limit 10240p"; i=$((i - 1)); done
	else
		echo "qdisc fq_codel 0: root refcnt 2 limit 10240p"
	fi
}
case "$op $*" in
"del root") boot >"$qd/$dev" ;;
"replace root handle 1: mq")
	{ echo "qdisc mq 1: root"
	  i=$n
	  while [ $i -ge 1 ]; do echo "qdisc pfifo_fast 0: parent 1:$i bands 3"; i=$((i - 1)); done
	} >"$qd/$dev" ;;
"replace root "*) echo "qdisc $2 8001: root refcnt 2" >"$qd/$dev" ;;
"replace parent "*)
	sed "s/^qdisc [^ ]* [^ ]* parent $2 .*/qdisc $3 80$(echo "$2" | tr -d :): parent $2 x/" \
	    "$qd/$dev" >"$qd/$dev.new" && mv "$qd/$dev.new" "$qd/$dev" ;;
*) exit 2 ;;
esac
'

# apply_qdisc MODE DEV TXQ : apply.sh with QDISC=fq on DEV; OUT its output.
apply_qdisc() {
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call apply "$APPLY_SH" \
	    MODE="$1" FILE="$FILE" STATE="$STATE" QDISC=fq DEV="$2" TXQ="$3" \
	    MODULES= ROUTE= PROBE= PERSIST= TO= \
	    INPUT=$'tcptune.test.a = 2\n')
	printf '%s\n' "$OUT" >"$R/out"
}

new_root qdisc
stub tc "$TC_STUB"
mkdir -p "$R/qd"
echo 2 >"$R/qd/eth1.txq"
# As booted: the kernel's own roots.
for d in eth0 eth1 eth2; do
	TCPTUNE_TEST_ROOT=$R "$R/bin/tc" qdisc del dev "$d" root
	cp "$R/qd/$d" "$SH_TMP/$d.booted"
done

# ---- 1. every interface of DEV, mq kept with fq on each queue
apply_qdisc apply "eth0 eth1" "0 2"
assert_block "a @qdisc section per interface, each with its live root" \
    $'@qdisc\ndev=eth0\nlive=qdisc fq 8001: root refcnt 2\n@qdisc\ndev=eth1\nlive=qdisc mq 1: root'
assert_eq "eth0: fq at the root" "qdisc fq 8001: root refcnt 2" \
    "$(cat "$R/qd/eth0")"
assert_eq "eth1: mq 1: kept, fq on both queues" \
    "qdisc mq 1: root|qdisc fq 8012: parent 1:2 x|qdisc fq 8011: parent 1:1 x" \
    "$(paste -sd'|' "$R/qd/eth1")"
assert_eq "the first backup has each interface's tc lines" \
    "$(cat "$SH_TMP/eth0.booted")|$(cat "$SH_TMP/eth1.booted")" \
    "$(cat "$B/qdisc@eth0")|$(cat "$B/qdisc@eth1")"

# ---- 2. an interface the first backup lacks
keep "$B/qdisc@eth0"
apply_qdisc apply eth2 0
assert_eq "eth2: fq at the root" "qdisc fq 8001: root refcnt 2" \
    "$(cat "$R/qd/eth2")"
assert_eq "eth2's lines saved before the change, beside the others" \
    "$(cat "$SH_TMP/eth2.booted")" "$(cat "$B/qdisc@eth2")"
same "$B/qdisc@eth0" "eth0's backup"
assert_eq "no temp file left in the backup" "" \
    "$(find "$B" -name '.qdisc@*')"

# ---- 3. a refusal names its interface; the next is still set
apply_qdisc apply "fail0 eth2" "0 0"
assert_line "the error names the interface" \
    "error=fail0: Error: Exclusivity flag on, cannot modify."
assert_line "eth2 was still set" "live=qdisc fq 8001: root refcnt 2"

# ---- 4. rollback: every interface as it booted
OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call apply "$APPLY_SH" MODE=rollback \
    FILE="$FILE" STATE="$STATE" QDISC= DEV=eth0 TXQ= MODULES= ROUTE= \
    PROBE= PERSIST= TO= INPUT=)
printf '%s\n' "$OUT" >"$R/out"
assert_line "rollback restored" "status=restored"
for d in eth0 eth1 eth2; do
	assert_eq "$d: its tc lines as booted" "$(cat "$SH_TMP/$d.booted")" \
	    "$(cat "$R/qd/$d")"
done
assert_eq "the backup is gone" absent "$([ -e "$B" ] && echo present || echo absent)"

sh_finish
