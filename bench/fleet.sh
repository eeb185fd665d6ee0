#!/bin/bash
# bench/fleet.sh - how fast does tcptune reach a fleet, against the OpenSSH
# floor and Ansible's fact gathering, on a lab of real hosts (network
# namespaces, each with its own sshd). Not a ctest: it takes minutes.
#
# Usage (root): bench/fleet.sh [-n HOSTS] [-r RUNS] [-a ANSIBLE_RUNS]
#                              [-t TCPTUNE] [-o RESULTS] [--no-ansible]
#                              [--no-plan] [--keep] [--names N[,N...]]
#                              [--names-only] [--names-formats F[,F...]]
#                              [--no-host-cpu] [--no-known-hosts]
#                              [--lab-dir DIR] [--lab-prefix P] [--lab-net NET]
# Prints a Markdown table (also written to RESULTS, default
# /tmp/tcptune-bench-results.md; the lab DIR is emptied at exit). Medians of RUNS (default 3) runs each.
#
# What is measured (wall clock of the whole command, lab already up):
#   floor     N parallel `ssh -F LAB_SSH_CONFIG -o KexAlgorithms=curve25519-sha256
#             HOST true` started with & and one wait (one process per host)
#   floor_probe  the same running the probe (`sh -s` with its header, the
#             prelude and lib/remote/probe.sh on stdin) instead of true
#             (the OpenSSH floor for the probe's remote work)
#   ping      tcptune ping -f N
#   probe     tcptune probe -f N          (+ peak RSS from /usr/bin/time -v)
#   probe_b   tcptune probe -b -f N: the same under sudo, as a playbook with
#             become (wan-tuning.yml) runs its probe: plan's like for like
#   ansible   ansible all -m setup -f N   (ansible-core from Debian;
#             pipelining on; strict host keys against the lab's known_hosts;
#             a fresh ControlPath dir per run, so every run is cold)
#   plan      tcptune plan playbooks/wan-tuning.yml --skip-tags verify -f N
#   apply     tcptune play  playbooks/wan-tuning.yml --skip-tags verify -f N
#   ansible-check / ansible-apply: bench/ansible-tune.yml (facts, template,
#             sysctl -p) with --check --diff, and applied, -f N
#   names     with --names N: an inventory listing each lab host under
#             N/HOSTS names (n00000.., ansible_host the lab host's address,
#             name i on lab host i mod HOSTS), then tcptune probe and plan
#             on all N names -f 100, each in the three formats (text,
#             --format json: one document streamed batch by batch, jsonl),
#             once each, under /usr/bin/time -v: wall time, peak RSS, and
#             controller CPU per name ((user+sys)/N); --names-only runs
#             only these (no floor, ping, probe, plan, apply or Ansible runs),
#             --names-formats text,json,jsonl chooses the formats
#   host CPU  bench/host-cpu.sh on the first lab host, RUNS rounds: the
#             host's CPU (its sshd and everything it forks, perf stat) for
#             `ssh true`, probe, apply and apply again (--no-host-cpu skips)
#   known_hosts  bench/known-hosts.sh on the lab, one run: controller CPU of
#             probe with the lab's hashed lines and after 20,000 hashed lines
#             of other hosts (--no-known-hosts skips)
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
LAB_SH=$SRC/tests/lab/lab.sh
N=100
RUNS=3
ANSIBLE_RUNS=3
ANSIBLE_MAX_SECS=150	# a first Ansible run slower than this: keep 1 run
DIR=/tmp/tcptune-bench
PREFIX=ttb
NET=198.18.210
TCPTUNE=${TCPTUNE:-}
RESULTS=
DO_ANSIBLE=1
DO_PLAN=1
KEEP=0
NAMES=
NAMES_FORMATS="text json jsonl"
DO_HOSTCPU=1
DO_KH=1

while [[ $# -gt 0 ]]; do
	case $1 in
	-n) N=$2; shift 2 ;;
	-r) RUNS=$2; shift 2 ;;
	-a) ANSIBLE_RUNS=$2; shift 2 ;;
	-t) TCPTUNE=$2; shift 2 ;;
	-o) RESULTS=$2; shift 2 ;;
	--no-ansible) DO_ANSIBLE=0; shift ;;
	--no-plan) DO_PLAN=0; shift ;;
	--keep) KEEP=1; shift ;;
	--names) NAMES=${2//,/ }; shift 2 ;;
	--names-only) RUNS=0; DO_ANSIBLE=0; DO_PLAN=0; DO_HOSTCPU=0; DO_KH=0; shift ;;
	--no-host-cpu) DO_HOSTCPU=0; shift ;;
	--no-known-hosts) DO_KH=0; shift ;;
	--names-formats) NAMES_FORMATS=${2//,/ }; shift 2 ;;
	--lab-dir) DIR=$2; shift 2 ;;
	--lab-prefix) PREFIX=$2; shift 2 ;;
	--lab-net) NET=$2; shift 2 ;;
	*) echo "usage: $0 [-n HOSTS] [-r RUNS] [-a ANSIBLE_RUNS] [-t TCPTUNE] [-o FILE] [--no-ansible] [--no-plan] [--keep] [--names N[,N...]] [--names-only] [--names-formats F[,F...]] [--no-host-cpu] [--no-known-hosts] [--lab-dir DIR] [--lab-prefix P] [--lab-net NET]" >&2
	   exit 2 ;;
	esac
done
RESULTS=${RESULTS:-/tmp/tcptune-bench-results.md}

[[ $(id -u) -eq 0 ]] || { echo "fleet.sh: run as root (the lab needs it)" >&2; exit 1; }
if [[ -z $TCPTUNE ]]; then
	for b in "$SRC"/build/tcptune "$SRC"/build*/tcptune; do
		[[ -x $b ]] && TCPTUNE=$b && break
	done
fi
[[ -x $TCPTUNE ]] || { echo "fleet.sh: no tcptune binary (-t)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "fleet.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
if ((DO_ANSIBLE)) && ! command -v ansible >/dev/null 2>&1; then
	echo "fleet.sh: ansible not installed: Ansible figures skipped" >&2
	DO_ANSIBLE=0
fi

WORK=$(mktemp -d /tmp/tcptune-bench-work.XXXXXX)
cleanup() {
	local s
	# Ansible's ControlPersist masters outlive the run: close them.
	for s in "$WORK"/cp*/*; do
		[[ -S $s ]] && ssh -o ControlPath="$s" -O exit x >/dev/null 2>&1
	done
	((KEEP)) || "$LAB_SH" down -d "$DIR" >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() {
	echo "[bench $(date +%T)] $*" >&2
}
now() {
	date +%s.%N
}
elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
	    END { if (NR % 2) print v[(NR + 1) / 2];
	          else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

log "lab: $N hosts in $DIR (prefix $PREFIX, $NET.0/24)"
t0=$(now)
"$LAB_SH" up -n "$N" -d "$DIR" -p "$PREFIX" -a "$NET" >"$WORK/lab-up.log" 2>&1 ||
	{ cat "$WORK/lab-up.log"; exit 1; }
log "lab up in $(elapsed "$t0") s"
# shellcheck disable=SC1091
. "$DIR/lab.env"
read -r -a HOSTS <<<"$LAB_HOSTS"
COMMON=(-i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" --no-color)

declare -A TIMES RSS NOTE

# time_run NAME CMD... : one timed run; the command must exit 0.
time_run() {
	local name=$1 t rc
	shift
	t=$(now)
	"$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
	rc=$?
	t=$(elapsed "$t")
	if ((rc != 0)); then
		log "$name: exit $rc (run not counted)"
		tail -n 5 "$WORK/$name.out" "$WORK/$name.err" >&2
		return 1
	fi
	TIMES[$name]+="$t "
	log "$name: $t s"
}

floor() {
	local h fails=0 pids=()
	for h in "${HOSTS[@]}"; do
		ssh -F "$LAB_SSH_CONFIG" -o KexAlgorithms=curve25519-sha256 "$h" true &
		pids+=($!)
	done
	for h in "${pids[@]}"; do
		wait "$h" || fails=$((fails + 1))
	done
	((fails == 0)) || { echo "floor: $fails ssh failed" >&2; return 1; }
}

# The same, each ssh running the probe script (what tcptune probe runs on
# a host, header + prelude + lib/remote/probe.sh): the floor for the remote
# work of a probe, which on one machine shares the cores with the controller.
floor_probe() {
	local h fails=0 pids=() prog
	# The program tcptune sends (lib/remote/prelude.sh states the
	# convention): the header of named inputs, the prelude, the script,
	# without comment and blank lines as tcptune embeds them
	# (cmake/embed.cmake), so that both send the same bytes.
	prog=$(printf "TARGETS=''\nONLY=''\nDROPIN=''\nLINKS=''\n"; sed -e '/^[[:space:]]*#/d' \
	    -e '/^[[:space:]]*$/d' "$SRC/lib/remote/prelude.sh" "$SRC/lib/remote/probe.sh")
	for h in "${HOSTS[@]}"; do
		ssh -F "$LAB_SSH_CONFIG" -o KexAlgorithms=curve25519-sha256 "$h" \
		    sh -s <<<"$prog" >/dev/null &
		pids+=($!)
	done
	for h in "${pids[@]}"; do
		wait "$h" || fails=$((fails + 1))
	done
	((fails == 0)) || { echo "floor_probe: $fails ssh failed" >&2; return 1; }
}

# rss_of NAME : peak RSS (KiB) from the /usr/bin/time -v report of the run.
rss_of() {
	awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/$1.time"
}

# Sum of the RSS of a process group, sampled every 0.1 s until it is gone
# (for Ansible, whose forks are separate processes; counts shared pages
# once per process, so it overstates).
sample_group_rss() {
	local pid=$1 max=0 s
	while kill -0 "$pid" 2>/dev/null; do
		s=$(ps -e -o pgid=,rss= | awk -v g="$pid" '$1 == g { t += $2 }
		    END { print t + 0 }')
		((s > max)) && max=$s
		sleep 0.1
	done
	echo "$max"
}

# Warm up: page cache, ARP entries, sshd's first fork on each host.
log "warm-up"
floor || exit 1
"$TCPTUNE" ping "${COMMON[@]}" -f "$N" >/dev/null 2>&1

for ((i = 1; i <= RUNS; i++)); do
	log "round $i/$RUNS"
	time_run floor floor
	time_run floor_probe floor_probe
	time_run ping "$TCPTUNE" ping "${COMMON[@]}" -f "$N"
	time_run probe /usr/bin/time -v -o "$WORK/probe.time" \
	    "$TCPTUNE" probe "${COMMON[@]}" -f "$N"
	RSS[probe]+="$(rss_of probe) "
	time_run probe_b "$TCPTUNE" probe "${COMMON[@]}" -b -f "$N"
done
# A probe's JSON once, to check every host answered.
"$TCPTUNE" probe "${COMMON[@]}" -f "$N" --format json >"$WORK/probe.json"
NOTE[probe]="$(jq '[.plays[0].results[][] | select(.status == "ok")] | length' \
    "$WORK/probe.json") of $N hosts ok"

if ((DO_ANSIBLE)); then
	export ANSIBLE_HOST_KEY_CHECKING=True ANSIBLE_PIPELINING=True \
	    ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_LOCAL_TEMP=$WORK/atmp \
	    ANSIBLE_HOME=$WORK/ahome ANSIBLE_TIMEOUT=30 \
	    ANSIBLE_CALLBACK_RESULT_FORMAT=json ANSIBLE_NOCOLOR=1
	# ansible_ssh_common_args in the lab inventory: the lab's known_hosts,
	# StrictHostKeyChecking=yes, KexAlgorithms=curve25519-sha256.
	ansible_run() {
		local k=$1 pgid
		shift
		export ANSIBLE_SSH_CONTROL_PATH_DIR=$WORK/cp$k
		setsid /usr/bin/time -v -o "$WORK/ansible$k.time" "$@" &
		pgid=$!
		sample_group_rss "$pgid" >"$WORK/ansible$k.grouprss"
		wait "$pgid"
	}
	for ((i = 1; i <= ANSIBLE_RUNS; i++)); do
		log "ansible setup run $i/$ANSIBLE_RUNS"
		time_run ansible ansible_run "$i" ansible all -i "$LAB_INVENTORY" \
		    -m setup -f "$N"
		RSS[ansible]+="$(awk -F': ' '/Maximum resident set size/ { print $2 }' \
		    "$WORK/ansible$i.time") "
		RSS[ansible_group]+="$(cat "$WORK/ansible$i.grouprss") "
		NOTE[ansible]="$(grep -c '| SUCCESS' "$WORK/ansible.out") of $N hosts SUCCESS"
		first=${TIMES[ansible]%% *}
		if ((i == 1)) && awk -v t="${first:-0}" -v m="$ANSIBLE_MAX_SECS" \
		    'BEGIN { exit !(t > m) }'; then
			log "first Ansible run took $first s: recording 1 run only"
			NOTE[ansible]+="; 1 run only (slower than ${ANSIBLE_MAX_SECS} s)"
			break
		fi
	done
fi

if ((DO_PLAN)); then
	PB=$SRC/playbooks/wan-tuning.yml
	# Lab hosts have no iperf3 peer to measure an RTT to: give the sizing
	# one (Ansible's template uses the same 100 ms and 1000 Mbit/s).
	PBX=(--skip-tags verify -e rtt_ms=100 -f "$N")
	# Between apply runs, back to stock: rollback.yml without its one-host-
	# at-a-time rollout (not measured).
	grep -Ev '^ *(serial|max_fail_percentage):' "$SRC/playbooks/rollback.yml" \
	    >"$WORK/rollback.yml"
	# Plan: changes nothing, so it can be repeated on the same state.
	for ((i = 1; i <= RUNS; i++)); do
		time_run plan /usr/bin/time -v -o "$WORK/plan.time" \
		    "$TCPTUNE" plan "${COMMON[@]}" "$PB" "${PBX[@]}" ||
		    NOTE[plan]="failed: $(tail -n 3 "$WORK/plan.err" "$WORK/plan.out" | tr '\n' ' ')"
		RSS[plan]+="$(rss_of plan) "
	done
	# Apply: the first run on stock hosts changes them; later runs find
	# nothing to do. Each run starts from stock: roll back in between.
	for ((i = 1; i <= RUNS; i++)); do
		time_run apply /usr/bin/time -v -o "$WORK/apply.time" \
		    "$TCPTUNE" play "${COMMON[@]}" "$PB" "${PBX[@]}" ||
		    NOTE[apply]="failed: $(tail -n 3 "$WORK/apply.err" "$WORK/apply.out" | tr '\n' ' ')"
		RSS[apply]+="$(rss_of apply) "
		time_run apply_again "$TCPTUNE" play "${COMMON[@]}" "$PB" "${PBX[@]}"
		"$TCPTUNE" play "${COMMON[@]}" "$WORK/rollback.yml" -f "$N" \
		    >"$WORK/rollback.out" 2>&1 || log "rollback failed: $(tail -n 3 "$WORK/rollback.out")"
	done
	if ((DO_ANSIBLE)); then
		AP=$HERE/ansible-tune.yml
		for ((i = 1; i <= 1; i++)); do
			time_run ansible_check ansible_run "c$i" ansible-playbook \
			    -i "$LAB_INVENTORY" "$AP" --check --diff -f "$N"
			time_run ansible_apply ansible_run "a$i" ansible-playbook \
			    -i "$LAB_INVENTORY" "$AP" -f "$N"
			time_run ansible_apply_again ansible_run "r$i" ansible-playbook \
			    -i "$LAB_INVENTORY" "$AP" -f "$N"
		done
	fi
fi

# --- many names for the same lab hosts -------------------------------------
# names_inventory COUNT FILE : the lab hosts under COUNT names in all.
names_inventory() {
	local count=$1 i addrs
	read -r -a addrs <<<"$LAB_ADDRS"
	{
		echo "all:"
		echo "  hosts:"
		for ((i = 0; i < count; i++)); do
			printf '    n%05d:\n      ansible_host: %s\n' "$i" \
			    "${addrs[i % ${#addrs[@]}]}"
		done
		echo "  vars:"
		echo "    ansible_user: root"
		echo "    ansible_ssh_private_key_file: $LAB_KEY"
	} >"$2"
}

# time_field FILE NAME : a field of a /usr/bin/time -v report.
time_field() {
	awk -F': ' -v k="$2" '$1 ~ k { print $2 }' "$1"
}

# names_run KIND COUNT CMD... : one timed run on COUNT names; a table row.
names_run() {
	local kind=$1 count=$2 t rc ok
	shift 2
	t=$(now)
	/usr/bin/time -v -o "$WORK/names.time" "$@" >"$WORK/names.out" \
	    2>"$WORK/names.err"
	rc=$?
	t=$(elapsed "$t")
	# hosts that finished without failing or being unreachable (the
	# recap, the JSON document's stats, or the jsonl recap event's)
	if [[ $kind == *jsonl ]]; then
		ok=$(jq -n '[inputs | select(.event == "recap") | .stats[]
		    | select(.failed == 0 and .unreachable == 0)] | length' \
		    "$WORK/names.out")
	elif [[ $(head -c 1 "$WORK/names.out") == "{" ]]; then
		ok=$(jq '[.stats[] | select(.failed == 0 and .unreachable == 0)]
		    | length' "$WORK/names.out")
	else
		ok=$(grep -cE ' : ok=[0-9]+ +changed=[0-9]+ +unreachable=0 +failed=0 ' \
		    "$WORK/names.out")
	fi
	awk -v k="$kind" -v n="$count" -v t="$t" -v rc="$rc" -v ok="$ok" \
	    -v rss="$(time_field "$WORK/names.time" "Maximum resident")" \
	    -v u="$(time_field "$WORK/names.time" "User time")" \
	    -v s="$(time_field "$WORK/names.time" "System time")" \
	    'BEGIN { printf "| %s | %d | %.3f | %.1f | %.2f + %.2f | %.2f | %d of %d ok (exit %d) |\n",
	        k, n, t, rss / 1024, u, s, (u + s) * 1000 / n, ok, n, rc }' \
	    >>"$WORK/names.rows"
	log "$kind on $count names: $t s, exit $rc, $ok ok"
}

if [[ -n $NAMES ]]; then
	: >"$WORK/names.rows"
	for count in $NAMES; do
		names_inventory "$count" "$WORK/names$count.yml"
		NC=(-i "$WORK/names$count.yml" --known-hosts "$LAB_KNOWN_HOSTS"
		    --no-color -f 100)
		# text, the one JSON document (streamed: its memory should
		# follow -f, not the names), and JSON lines
		for fmt in $NAMES_FORMATS; do
			[[ $fmt == text ]] && fmt= || fmt="--format $fmt"
			# shellcheck disable=SC2086
			names_run "probe${fmt:+ $fmt}" "$count" "$TCPTUNE" probe \
			    "${NC[@]}" $fmt
			# shellcheck disable=SC2086
			names_run "plan${fmt:+ $fmt}" "$count" "$TCPTUNE" plan \
			    "${NC[@]}" "$SRC/playbooks/wan-tuning.yml" \
			    --skip-tags verify -e rtt_ms=100 $fmt
		done
	done
fi

# The host's side and the known_hosts of a fleet (issue 25).
if ((DO_HOSTCPU)) && ((RUNS > 0)); then
	if command -v perf >/dev/null; then
		log "host CPU on ${HOSTS[0]} ($RUNS rounds)"
		"$HERE/host-cpu.sh" "$DIR" "${HOSTS[0]}" -r "$RUNS" "$TCPTUNE" \
		    >"$WORK/hostcpu.rows" 2>"$WORK/hostcpu.err" ||
		    { cat "$WORK/hostcpu.err" >&2; : >"$WORK/hostcpu.rows"; }
	else
		log "no perf (Debian: linux-perf): no host CPU figures"
	fi
fi
if ((DO_KH)); then
	log "known_hosts: the lab's lines, then after 20,000 hashed others"
	"$HERE/known-hosts.sh" "$DIR" -r 1 "$TCPTUNE" >"$WORK/kh.rows" \
	    2>"$WORK/kh.err" || { cat "$WORK/kh.err" >&2; : >"$WORK/kh.rows"; }
fi

# --- report ----------------------------------------------------------------
med() {
	# shellcheck disable=SC2086
	[[ -n ${TIMES[$1]:-} ]] && median ${TIMES[$1]} || echo "-"
}
{
	echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, kernel $(uname -r), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "tcptune: $("$TCPTUNE" version) ($TCPTUNE); $(ssh -V 2>&1); $(ansible --version 2>/dev/null | head -n 1)"
	echo "Hosts: $N lab hosts; $RUNS runs per tcptune/floor figure"
	echo
	echo "| what | runs (s) | median (s) | peak RSS (MiB) | note |"
	echo "| --- | --- | --- | --- | --- |"
	for k in floor floor_probe ping probe probe_b ansible plan apply apply_again ansible_check ansible_apply ansible_apply_again; do
		[[ -n ${TIMES[$k]:-}${NOTE[$k]:-} ]] || continue
		rss=-
		if [[ -n ${RSS[$k]:-} ]]; then
			# shellcheck disable=SC2086
			rss=$(printf '%s\n' ${RSS[$k]} | sort -g | tail -n 1 |
			    awk '{ printf "%.1f", $1 / 1024 }')
		fi
		if [[ $k == ansible && -n ${RSS[ansible_group]:-} ]]; then
			# shellcheck disable=SC2086
			rss+=" (largest process); $(printf '%s\n' ${RSS[ansible_group]} |
			    sort -g | tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }') summed over its processes"
		fi
		echo "| $k | ${TIMES[$k]:-} | $(med "$k") | $rss | ${NOTE[$k]:-} |"
	done
	echo
	f=$(med floor) p=$(med probe) a=$(med ansible)
	if [[ $f != - && $p != - ]]; then
		fp=$(med floor_probe)
		awk -v f="$fp" -v p="$p" 'BEGIN { printf "probe / floor_probe (same remote work through OpenSSH) = %.2f\n", p / f }'
	fi
	if [[ $a != - && $p != - ]]; then
		awk -v a="$a" -v p="$p" 'BEGIN { printf "ansible setup / probe = %.1fx (target >= 20x): %s\n", a / p, (a / p >= 20) ? "MET" : "NOT MET" }'
	fi
	for pair in "plan ansible_check" "apply ansible_apply" \
	    "apply_again ansible_apply_again"; do
		# shellcheck disable=SC2086
		set -- $pair
		x=$(med "$1") y=$(med "$2")
		[[ $x != - && $y != - ]] || continue
		awk -v x="$x" -v y="$y" -v a="$2" -v b="$1" \
		    'BEGIN { printf "%s / %s = %.1fx\n", a, b, y / x }'
	done
	# The target compares like with like: plan's probe runs under sudo
	# (the playbook's become), so against probe -b; against the probe
	# without sudo for context (sudo's own cost on every host is in it).
	p=$(med probe) pb=$(med probe_b) x=$(med plan)
	if [[ $pb != - && $x != - ]]; then
		awk -v p="$pb" -v x="$x" 'BEGIN { printf "plan / probe -b (both under sudo) = %.2f (target <= 1.1): %s\n", x / p, (x / p <= 1.1) ? "MET" : "NOT MET" }'
	fi
	if [[ $p != - && $x != - ]]; then
		awk -v p="$p" -v x="$x" 'BEGIN { printf "plan / probe (probe without sudo) = %.2f\n", x / p }'
	fi
	if [[ -s $WORK/names.rows ]]; then
		echo
		echo "Many names ($N lab hosts, each under names/$N names; -f 100; one run each):"
		echo
		echo "| command | names | wall (s) | peak RSS (MiB) | CPU user + sys (s) | CPU per name (ms) | hosts |"
		echo "| --- | --- | --- | --- | --- | --- | --- |"
		cat "$WORK/names.rows"
		awk -F' [|] ' '$1 == "| probe" && $2 == 1000 { printf "\ncontroller CPU per name, probe at 1000 names = %s ms (target <= 1): %s\n", $6, ($6 <= 1) ? "MET" : "NOT MET" }' \
		    "$WORK/names.rows"
	fi
	if [[ -s $WORK/hostcpu.rows ]]; then
		echo
		echo "Host CPU per run on ${HOSTS[0]} (its sshd and everything it forks, perf stat; mean of $RUNS):"
		echo
		cat "$WORK/hostcpu.rows"
	fi
	if [[ -s $WORK/kh.rows ]]; then
		echo
		echo "Controller CPU of probe -f $N against a hashed known_hosts (bench/known-hosts.sh, one run):"
		echo
		cat "$WORK/kh.rows"
	fi
} | tee "$RESULTS"
