#!/bin/sh
# contrib/cron/tcptune-drift-cron, run as root against a stub tcptune: the
# secrets of drift.env reach tcptune through its environment (quotes
# removed as systemd does), never its arguments, and tcptune runs as the
# unprivileged user; a drift.env that others can read, or that root does
# not own, is refused before anything runs, and so is a line that is not
# KEY=value; without drift.env the check runs with no secrets. Under dash.
# Exit 77 (skipped) when not root (setpriv needs it).
# usage: http-drift-cron.sh SOURCE_DIR
set -u
src=${1:?usage: http-drift-cron.sh SOURCE_DIR}
wrapper=$src/contrib/cron/tcptune-drift-cron
user=nobody
# only drift.env may bring the secrets
unset TCPTUNE_WEBHOOK TCPTUNE_INVENTORY_TOKEN

if [ "$(id -u)" -ne 0 ]; then
	echo "not root: tcptune-drift-cron not run"
	exit 77
fi
for c in dash setpriv; do
	command -v "$c" >/dev/null 2>&1 || { echo "no $c: skipped"; exit 77; }
done

dir=$(mktemp -d /tmp/tcptune-drift-cron-XXXXXX)
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
chmod 0755 "$dir"

fails=0 checks=0
ok() { checks=$((checks + 1)); echo "ok - $1"; }
not_ok() { checks=$((checks + 1)); fails=$((fails + 1)); echo "not ok - $1"; }
check() {
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
contains() { grep -qxF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }

# the stub records who ran it, its arguments and its environment
cat >"$dir/tcptune" <<EOF
#!/bin/sh
{ echo "uid=\$(id -u)"; for a; do echo "arg=\$a"; done; env | sed 's/^/env:/'; } >'$dir/ran'
EOF
chmod 0755 "$dir/tcptune"

secret=XXsecretXX
cat >"$dir/drift.env" <<EOF
# the webhook of #netops
TCPTUNE_WEBHOOK=https://hooks.example/services/T0001/B0002/$secret

  ; another comment, indented
TCPTUNE_INVENTORY_TOKEN="tok s3cret=="
EOF
chown 0:0 "$dir/drift.env"
chmod 0600 "$dir/drift.env"

uid=$(id -u "$user")
# run_wrapper: the wrapper under dash with the test's drift.env, user and
# stub; its output in $dir/err, the stub's record in $dir/ran (empty if it
# did not run; made writable for $user first)
run_wrapper() {
	rm -f "$dir/ran"
	: >"$dir/ran"
	chmod 0666 "$dir/ran"
	dash "$wrapper" -e "$dir/drift.env" -u "$user" -b "$dir/tcptune" \
	    >"$dir/err" 2>&1
}

run_wrapper
check "runs: exit 0" [ $? -eq 0 ]
check "runs: as $user" contains "$dir/ran" "uid=$uid"
check "runs: drift" contains "$dir/ran" "arg=drift"
check "runs: webhook in the environment" contains "$dir/ran" \
    "env:TCPTUNE_WEBHOOK=https://hooks.example/services/T0001/B0002/$secret"
check "runs: token in the environment, quotes removed" contains "$dir/ran" \
    "env:TCPTUNE_INVENTORY_TOKEN=tok s3cret=="
check "runs: secrets on no argument" [ -z "$(grep '^arg=' "$dir/ran" |
    grep -e "$secret" -e s3cret -e webhook)" ]
check "runs: HOME of the service" contains "$dir/ran" "env:HOME=/var/lib/tcptune"
check "runs: nothing on stderr" [ ! -s "$dir/err" ]

# readable by others: refused, nothing run
chmod 0644 "$dir/drift.env"
run_wrapper
check "mode 0644: exit 1" [ $? -eq 1 ]
check "mode 0644: says why" grep -q "holds secrets: it must be owned by root and readable by nobody else (chown root:root, chmod 0600); it is uid:mode 0:644" "$dir/err"
check "mode 0644: tcptune not run" [ ! -s "$dir/ran" ]
chmod 0600 "$dir/drift.env"

# owned by someone else: refused
chown "$user" "$dir/drift.env"
run_wrapper
check "not root's: exit 1" [ $? -eq 1 ]
check "not root's: says why" grep -q "it is uid:mode $uid:600" "$dir/err"
check "not root's: tcptune not run" [ ! -s "$dir/ran" ]
chown 0 "$dir/drift.env"

# a line that is not KEY=value (a shell command, say): refused, not run
printf 'TCPTUNE_WEBHOOK=x\ntouch %s/pwned\n' "$dir" >"$dir/drift.env"
run_wrapper
check "bad line: exit 1" [ $? -eq 1 ]
check "bad line: names file and line" grep -qF \
    "tcptune-drift-cron: $dir/drift.env:2: not KEY=value" "$dir/err"
check "bad line: not run as shell" [ ! -e "$dir/pwned" ]
check "bad line: tcptune not run" [ ! -s "$dir/ran" ]

# no drift.env: runs, without secrets
rm -f "$dir/drift.env"
run_wrapper
check "no drift.env: exit 0" [ $? -eq 0 ]
check "no drift.env: ran" contains "$dir/ran" "arg=drift"
check "no drift.env: no webhook" lacks "$dir/ran" "TCPTUNE_WEBHOOK"

echo "# $checks checks, $fails failed"
[ "$fails" -eq 0 ]
