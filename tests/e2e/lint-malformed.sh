#!/usr/bin/env bash
# `tcptune lint` on each malformed playbook: exit 1, and every error line
# starts with that file's path and a line:col position.
set -u
tcptune=$1
src=$2
cd "$src" || exit 1
failed=0
n=0
for f in tests/data/playbooks/bad/*.yml; do
	n=$((n + 1))
	out=$("$tcptune" lint "$f" 2>&1)
	rc=$?
	# 21-undefined-at-render is only an error at run time, by design.
	case $f in *undefined-at-render*) continue ;; esac
	if [ "$rc" -ne 1 ]; then
		echo "FAIL: $f: exit $rc, expected 1"; failed=$((failed + 1)); continue
	fi
	first=$(printf '%s\n' "$out" | head -n 1)
	case $first in
	"$f":[0-9]*:[0-9]*:\ *|tests/data/playbooks/bad/*:[0-9]*:[0-9]*:\ *) ;;
	*) echo "FAIL: $f: no file:line:col in: $first"; failed=$((failed + 1)) ;;
	esac
done
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
