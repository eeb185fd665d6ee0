#!/bin/bash
# as-root.sh - README's commands work for root without sudo and for a sudo
# user (scripts/as-root.sh): as a user who is not root, a script that needs
# root stops with a clear error naming what needs root when sudo is not
# installed (a fresh minimal Debian), and runs itself again under sudo,
# by absolute path with its arguments, when it is; root runs it as it is.
# Every script README.md tells a user to run, and none of README.md's
# command lines starts with sudo. Needs root (to become another user);
# 77 otherwise.
set -u
[ "$(id -u)" -eq 0 ] || exit 77
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
passed=0
failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $1"; printf '#   %s\n' "${2:-}" | head -n 5; failed=$((failed + 1)); }

# A PATH with only what as-root.sh itself runs, and with or without a sudo
# that records how it was called (standing in for sudo's password prompt).
mkdir -p "$tmp/nosudo" "$tmp/sudo"
for t in id basename dirname cat; do
	ln -s "$(command -v "$t")" "$tmp/nosudo/$t"
	ln -s "$(command -v "$t")" "$tmp/sudo/$t"
done
mkdir -m 1777 "$tmp/rec"
printf '#!/bin/bash\nprintf "%%s\\n" "$@" >%s/rec/sudo.args\n' "$tmp" >"$tmp/sudo/sudo"
chmod 755 "$tmp/sudo/sudo"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    env -i HOME=/ PATH="$1" /bin/bash "${@:2}"
}

for s in setup demo test package-test; do
	out=$(as_nobody "$tmp/nosudo" "$src/scripts/$s.sh" 2>&1)
	rc=$?
	case $out in
	"$s.sh: run as root ("*"); sudo is not installed")
		if [ "$rc" = 1 ]; then ok "$s.sh, not root, no sudo: exit 1, says why"
		else not_ok "$s.sh, no sudo: exit $rc" "$out"; fi ;;
	*) not_ok "$s.sh, not root, no sudo: no clear error" "$out" ;;
	esac
	rm -f "$tmp/rec/sudo.args"
	# an argument each script takes (demo.sh refuses unknown ones first)
	arg=--guests
	[ "$s" = package-test ] && arg=build
	out=$(as_nobody "$tmp/sudo" "$src/scripts/$s.sh" "$arg" 2>&1)
	want=$(printf '%s\n' -- "$src/scripts/$s.sh" "$arg")
	if [ "$(cat "$tmp/rec/sudo.args" 2>/dev/null)" = "$want" ]; then
		ok "$s.sh, not root, sudo: runs itself again as sudo -- $src/scripts/$s.sh $arg"
	else
		not_ok "$s.sh, not root, sudo: sudo called as '$(cat "$tmp/rec/sudo.args" 2>/dev/null)'" "$out"
	fi
done

# Root goes on without sudo: demo.sh --help is past the check only for root
# (and needs nothing else).
out=$(env -i PATH="$tmp/nosudo:/usr/bin:/bin" bash -c \
    '. "$1/scripts/as-root.sh"; cd "$1"; as_root test; echo past' _ "$src" 2>&1)
if [ "$out" = past ]; then ok "root: as_root returns, no sudo needed"
else not_ok "root: as_root did not return" "$out"; fi

bad=$(grep -nE '^[[:space:]]*sudo ' "$src/README.md" | grep -E 'scripts/(setup|demo|test)\.sh')
if [ -z "$bad" ]; then ok "README.md: no scripts/ command starts with sudo"
else not_ok "README.md: commands start with sudo" "$bad"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
