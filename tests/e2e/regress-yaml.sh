#!/usr/bin/env bash
# The YAML-side reproducers of the fuzzing run (tests/data/fuzz-regress/yaml,
# plus the large ones of gen-large.py, made here in a temporary directory):
# each one through the built tcptune, under `timeout 20` and a 2 GiB address
# space, ends in exit 1 with its exact message and position, or in exit 0
# where Ansible reads it as data. A crash (139), a timeout (124) or running
# out of memory fails the case.
# usage: regress-yaml.sh TCPTUNE SRC
set -u
tcptune=$1
src=$2
data=$src/tests/data/fuzz-regress/yaml
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# run NAME RC EXPECTED-LINE ARGS...: exit status RC and the line, exactly,
# somewhere in stdout+stderr.
run() {
	name=$1 want_rc=$2 want=$3
	shift 3
	out=$(ulimit -v 2097152; timeout 20 "$tcptune" "$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		echo "not ok - $name: exit $rc, want $want_rc"
		printf '%s\n' "$out" | head -n 5 | cut -c1-300 | sed 's/^/#   /'
		failed=$((failed + 1))
	elif ! printf '%s\n' "$out" | grep -qxF -- "$want"; then
		echo "not ok - $name: no line '$want' in:"
		printf '%s\n' "$out" | head -n 5 | cut -c1-300 | sed 's/^/#   /'
		failed=$((failed + 1))
	else
		echo "ok - $name"
		passed=$((passed + 1))
	fi
}

# repeat N TEXT: TEXT N times.
repeat() {
	printf "%${1}s" '' | sed "s/ /$2/g"
}

cd "$data" || exit 1
printf -- '- hosts: all\n  tasks:\n    - ping:\n' >"$tmp/ping.yml"

# Duplicate hosts:/children: keys, the first a list: NULL dereference in
# the YAML loader. PyYAML keeps the last value and Ansible warns; so do we.
for f in yaml-dup-hosts-key-segv.yml yaml-dup-children-key-segv.yml \
    json-dup-hosts-key-segv.json; do
	case $f in
	*children*) key=children pos=4:3 counts='0 hosts, 4 groups' ;;
	*.json) key=hosts pos=1:26 counts='1 hosts, 3 groups' ;;
	*) key=hosts pos=4:3 counts='1 hosts, 3 groups' ;;
	esac
	member='"b"'
	warning="[WARNING]: $f:$pos: duplicate key '$key': only the last value is used, as in Ansible"
	run "$f: inventory --list warns" 0 "$warning" inventory -i "$f" --list
	# the last value, as ansible-inventory --list shows it
	out=$("$tcptune" inventory -i "$f" --list 2>/dev/null |
	    tr -d ' \n')
	case $out in
	*"\"web\":{\"$key\":[$member]}"*)
		echo "ok - $f: web's $key is [$member]"
		passed=$((passed + 1)) ;;
	*)
		echo "not ok - $f: web's $key is not [$member]: $out"
		failed=$((failed + 1)) ;;
	esac
	run "$f: lint" 0 "inventory: ok ($counts)" lint -i "$f" \
	    "$tmp/ping.yml"
done

# A recursive alias recursed until the stack overflowed.
run "yaml-alias-cycle-inventory.yml: inventory" 1 \
    "tcptune: error: yaml-alias-cycle-inventory.yml:3:12: alias '*a' refers to itself" \
    inventory -i yaml-alias-cycle-inventory.yml --list
run "yaml-alias-cycle-playbook.yml: lint" 1 \
    "yaml-alias-cycle-playbook.yml:3:12: alias '*a' refers to itself" \
    lint yaml-alias-cycle-playbook.yml

# Nested aliases: a 479-byte file took several GB and over a minute.
run "yaml-billion-laughs.yml: inventory" 1 \
    "tcptune: error: yaml-billion-laughs.yml:8:42: aliases expand to more than 1000000 nodes" \
    inventory -i yaml-billion-laughs.yml --list
run "yaml-billion-laughs-playbook.yml: lint" 1 \
    "yaml-billion-laughs-playbook.yml:8:42: aliases expand to more than 1000000 nodes" \
    lint yaml-billion-laughs-playbook.yml

# Integers past 64 bits wrapped. Ansible prints the exact integers (and
# keeps 1:99... a string: 99 is no base-60 digit); we print the same digits
# as strings, jansson having no bigger integers.
for line in '"x": "1:9999999999999999999",' '"y": "266666666666666666640",' \
    '"z": "9444732965739290427391"'; do
	run "yaml-int-overflow.yml: $line" 0 "                $line" \
	    inventory -i yaml-int-overflow.yml --list
done

# YAML 1.1 base 60 as PyYAML reads it (issue 14): a docker port mapping
# stays a string, so does 1:60; 190:20:30 is an int, 190:20:30.15 a float.
# The lines are ansible-inventory 2.14's (the float: jansson prints 17
# digits of the same double).
f=$tmp/sexagesimal.yml
printf 'all:\n  hosts:\n    h1:\n      ports: 8086:8086\n      a: 190:20:30\n      b: 190:20:30.15\n      c: 1:60\n      d: -1:30\n' >"$f"
for line in '"a": 685230,' '"b": 685230.15000000002,' '"c": "1:60",' \
    '"d": -90,' '"ports": "8086:8086"'; do
	run "sexagesimal: $line" 0 "                $line" \
	    inventory -i "$f" --list
done

# Merge keys in group vars were kept as a variable named '<<'.
f=$tmp/merge.yml
printf 'all:\n  vars:\n    <<: {a: 1, b: 2}\n    b: 3\n  hosts:\n    h1:\n' >"$f"
for line in '"a": 1,' '"b": 3'; do
	run "merge key in group vars: $line" 0 "                $line" \
	    inventory -i "$f" --list
done

# Many anchors and aliases: each alias searched every anchor (quadratic:
# minutes for this 3 MB file).
f=$tmp/anchors.yml
awk 'BEGIN { n = 200000; printf "all:\n  vars:\n    a: [";
	for (i = 0; i < n; i++) printf "%s&a%d x", (i ? "," : ""), i;
	printf "]\n    b: [";
	for (i = 0; i < n; i++) printf "%s*a0", (i ? "," : "");
	printf "]\n  hosts:\n    h1:\n" }' >"$f"
run "200000 anchors and aliases" 0 "            \"h1\"" inventory -i "$f" --list

# The large ones of gen-large.py, made here rather than kept.
f=$tmp/yaml-deepseq-100000.yml
{ printf 'all:\n  vars:\n    x: '; repeat 100000 '['; repeat 100000 ']'; echo; } >"$f"
run "yaml-deepseq-100000.yml: inventory" 1 \
    "tcptune: error: $f:3:261: nesting deeper than 256 levels" \
    inventory -i "$f" --list

# A "\0" escape in a double-quoted scalar: yaml_scalar_to_json gave NULL
# and ynode_type_name dereferenced it (fuzz-playbook, SIGSEGV). A NUL byte
# is refused where the scalar is read, for playbooks and inventories alike.
run "yaml-playbook-scalar-segv.yml: lint" 1 \
    "yaml-playbook-scalar-segv.yml:1:1: a scalar with a NUL character (\"\\0\") is not supported" \
    lint yaml-playbook-scalar-segv.yml
f=$tmp/nul-inventory.yml
printf 'all:\n  hosts:\n    h1:\n      v: "a\\0b"\n' >"$f"
run "NUL in an inventory value" 1 \
    "tcptune: error: $f:4:10: a scalar with a NUL character (\"\\0\") is not supported" \
    inventory -i "$f" --list
f=$tmp/nul-key.yml
printf -- '- hosts: all\n  vars:\n    "k\\0": 1\n  tasks: []\n' >"$f"
run "NUL in a mapping key" 1 \
    "$f:3:5: a scalar with a NUL character (\"\\0\") is not supported" \
    lint "$f"

f=$tmp/when-deep-100000.yml
{ printf -- '- hosts: all\n  tasks:\n    - ping:\n      when: "'
  repeat 100000 '('; printf 1; repeat 100000 ')'; printf '"\n'; } >"$f"
run "when-deep-100000.yml: lint" 1 \
    "$f:4:13: invalid when expression '$(repeat 77 '(')...': expression nests deeper than 100 levels at character 101" \
    lint "$f"

f=$tmp/when-not-100000.yml
{ printf -- '- hosts: all\n  tasks:\n    - ping:\n      when: "'
  repeat 100000 'not '; printf 'x"\n'; } >"$f"
run "when-not-100000.yml: lint" 1 \
    "$f:4:13: invalid when expression '$(repeat 19 'not ')n...': expression nests deeper than 100 levels at character 401" \
    lint "$f"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
