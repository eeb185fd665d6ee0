#!/bin/bash
# look-ansible.sh - `tcptune play --list-hosts --list-tasks` against
# `ansible-playbook --list-hosts --list-tasks` (2.14) on the shipped
# playbooks and tests/data/playbooks/look/plays.yml, with the example
# inventories, --limit, --tags and --skip-tags: the same text once the
# normalisations below are made. No host is contacted, no root needed.
# Usage: look-ansible.sh [TCPTUNE]. Exit 77 when ansible-playbook is absent.
set -uo pipefail
E2E_NEEDS_ROOT=0
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "look-ansible: SKIP: ansible-playbook is not installed"; exit 77; }
e2e_init look-ansible "${1:-}"

SRC=$E2E_SRC
EX=$SRC/inventory-examples
PLAYS=$SRC/tests/data/playbooks/look/plays.yml

# Ansible must resolve every module name to parse a playbook, and knows none
# of tcptune's own: give it an empty stub module per name (ANSIBLE_LIBRARY).
# Listing never runs a module. ping and command are Ansible's builtins and
# sysctl (and any FQCN) resolves to ansible.posix's: no stub, so that a
# stub never shadows a real module.
mkdir -p "$E2E_TMP/library" "$E2E_TMP/work"
"$TCPTUNE" modules | while read -r m _; do
	case $m in
	ping | command | sysctl | *.*) ;;
	*) : >"$E2E_TMP/library/$m.py" ;;
	esac
done
# Run both from an empty directory: no ansible.cfg, group_vars/ or
# host_vars/ of the caller's is read. Ansible's own files go to the temp dir.
cd "$E2E_TMP/work" || exit 1
export ANSIBLE_LIBRARY=$E2E_TMP/library ANSIBLE_NOCOLOR=1 \
    ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp ANSIBLE_HOME=$E2E_TMP/ansible-home
unset ANSIBLE_CONFIG

# normalise < LISTING : what may differ, made the same.
#  - Host lines are sorted within each play: Ansible prints a Python set of
#    hosts, whose order changes from run to run (hash seed); tcptune prints
#    them in the order the run takes them.
#  - The tags of a play's header line are sorted: a Python set again
#    (task lines are sorted by both).
#  - tcptune's own lines are dropped: the implicit steps it lists among the
#    tasks ("Gathering Facts\t(implicit: probe)" and the apply of staged
#    tuning), which Ansible's listing does not show, and the
#    "serial batches (N): ..." line, which Ansible does not print.
normalise() {
	awk '
	function sort_tags(line,   pre, body, n, t, i, j, x, out) {
		if (!match(line, /\tTAGS: \[[^]]*\]$/))
			return line
		pre = substr(line, 1, RSTART + 7)
		body = substr(line, RSTART + 8, RLENGTH - 9)
		n = split(body, t, ",")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && t[j - 1] > t[j]; j--) {
				x = t[j]; t[j] = t[j - 1]; t[j - 1] = x
			}
		out = ""
		for (i = 1; i <= n; i++)
			out = out (i > 1 ? "," : "") t[i]
		return pre out "]"
	}
	/\t\(implicit: [^)]*\)$/ || /^    serial batches \(/ { next }
	/^      / && inhosts { print block "\t" $0 "\t" $0; next }
	{ inhosts = 0 }
	/^    hosts \(/ { inhosts = 1; block = NR }
	/^  play #/ { $0 = sort_tags($0) }
	{ print NR "\t\t" $0 }
	' | LC_ALL=C sort -t "$(printf '\t')" -k1,1n -k2,2 | cut -f3-
}

# compare DESC ARGS... : both tools on ARGS; the normalised texts equal.
compare() {
	local desc=$1
	shift
	"$TCPTUNE" play "$@" >"$E2E_TMP/ours" 2>"$E2E_TMP/ours.err"
	local rc=$?
	ansible-playbook "$@" >"$E2E_TMP/theirs" 2>"$E2E_TMP/theirs.err"
	if ((rc != 0)); then
		e2e_fail "$desc: tcptune exited $rc: $(cat "$E2E_TMP/ours.err")"
		return
	fi
	if [[ ! -s $E2E_TMP/theirs ]]; then
		e2e_fail "$desc: ansible-playbook printed nothing: $(cat "$E2E_TMP/theirs.err")"
		return
	fi
	normalise <"$E2E_TMP/ours" >"$E2E_TMP/ours.n"
	normalise <"$E2E_TMP/theirs" >"$E2E_TMP/theirs.n"
	if diff -u "$E2E_TMP/theirs.n" "$E2E_TMP/ours.n" >"$E2E_TMP/diff"; then
		e2e_ok "$desc ($(grep -c . "$E2E_TMP/ours.n") lines)"
	else
		e2e_fail "$desc: listings differ (- ansible-playbook, + tcptune):"
		sed 's/^/    | /' "$E2E_TMP/diff"
	fi
}

for pb in wan-tuning drift-check rollback; do
	compare "$pb.yml, fleet.ini" -i "$EX/fleet.ini" \
	    "$SRC/playbooks/$pb.yml" --list-hosts --list-tasks
done
compare "wan-tuning.yml, fleet.yml, --tags verify --limit ovh" \
    -i "$EX/fleet.yml" "$SRC/playbooks/wan-tuning.yml" --list-hosts \
    --list-tasks --tags verify --limit ovh
compare "plays.yml, fleet.ini" -i "$EX/fleet.ini" "$PLAYS" --list-hosts \
    --list-tasks
compare "plays.yml, fleet.yml, --limit 'bhs*:gcp'" -i "$EX/fleet.yml" \
    "$PLAYS" --list-hosts --limit 'bhs*:gcp'
compare "plays.yml, --list-tasks --tags tune,check" -i "$EX/fleet.ini" \
    "$PLAYS" --list-tasks --tags tune,check
compare "plays.yml, --list-tasks --skip-tags route,wan" -i "$EX/fleet.ini" \
    "$PLAYS" --list-tasks --skip-tags route,wan
compare "plays.yml, --list-tasks --tags debug (a 'never' task asked for)" \
    -i "$EX/fleet.ini" "$PLAYS" --list-tasks --tags debug
compare "plays.yml, --list-tasks --tags untagged --skip-tags always" \
    -i "$EX/fleet.ini" "$PLAYS" --list-tasks --tags untagged \
    --skip-tags always

# The normalisation hides only what it says: without it, the listings of a
# play with one tag and hosts in one order differ only by tcptune's lines.
"$TCPTUNE" play -i "$EX/fleet.ini" "$SRC/playbooks/rollback.yml" \
    --list-tasks >"$E2E_TMP/ours" 2>&1
ansible-playbook -i "$EX/fleet.ini" "$SRC/playbooks/rollback.yml" \
    --list-tasks >"$E2E_TMP/theirs" 2>&1
assert_eq "rollback.yml --list-tasks: byte for byte the same" \
    "$(cat "$E2E_TMP/theirs")" "$(cat "$E2E_TMP/ours")"
e2e_finish
