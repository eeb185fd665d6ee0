#!/bin/sh
# systemd-analyze verify of contrib/systemd/tcptune-drift.{service,timer} in
# a throw-away root (the host's unit directory copied, a stub
# /usr/local/bin/tcptune), failing on any message it prints: verify exits
# 0 even for values it ignores. Also checks the cron example's schedule
# line has the six fields of /etc/cron.d and runs the wrapper as root, and
# that no secret is passed on a command line (ps shows those to every
# user): neither file names --webhook or a TCPTUNE_* variable in a
# command. Nothing is installed on the machine. Exit 77 (skipped) without
# systemd-analyze.
# usage: http-units-verify.sh SOURCE_DIR
set -u
src=${1:?usage: http-units-verify.sh SOURCE_DIR}
fails=0

line=$(grep -v '^#' "$src/contrib/cron/tcptune-drift" | grep -E '^[0-9*]' )
set -f
# shellcheck disable=SC2086
set -- $line
set +f
if [ "$6" = root ] && [ "$1" = 17 ] && [ "$2" = '*' ]; then
	echo "ok - cron line: minute 17, every hour, user root"
else
	echo "not ok - cron line: '$line'"; fails=$((fails + 1))
fi
case $line in
*' tcptune-drift-cron '*) echo "ok - cron line: runs tcptune-drift-cron" ;;
*) echo "not ok - cron line does not run tcptune-drift-cron: '$line'"
   fails=$((fails + 1)) ;;
esac
# commands only: comments may name the variables
if grep -v '^#' "$src/contrib/cron/tcptune-drift" \
    "$src/contrib/cron/tcptune-drift-cron" |
    grep -e '--webhook' -e 'TCPTUNE_WEBHOOK' -e 'TCPTUNE_INVENTORY_TOKEN'; then
	echo "not ok - cron: a secret on a command line"; fails=$((fails + 1))
else
	echo "ok - cron: no secret on a command line"
fi
exec_start=$(sed -n '/^ExecStart=/,/[^\\]$/p' \
    "$src/contrib/systemd/tcptune-drift.service")
case $exec_start in
*--webhook* | *TCPTUNE_* | '')
	echo "not ok - systemd: ExecStart passes a secret: $exec_start"
	fails=$((fails + 1)) ;;
*) echo "ok - systemd: no secret in ExecStart" ;;
esac
if grep -qx 'EnvironmentFile=-/etc/tcptune/drift.env' \
    "$src/contrib/systemd/tcptune-drift.service"; then
	echo "ok - systemd: secrets from /etc/tcptune/drift.env"
else
	echo "not ok - systemd: no EnvironmentFile=-/etc/tcptune/drift.env"
	fails=$((fails + 1))
fi
if grep -q '%' "$src/contrib/cron/tcptune-drift"; then
	echo "not ok - cron file has a % (cron turns it into a newline)"
	fails=$((fails + 1))
fi

units=/usr/lib/systemd/system
[ -d "$units" ] || units=/lib/systemd/system
if ! command -v systemd-analyze >/dev/null 2>&1 || [ ! -d "$units" ]; then
	echo "systemd-analyze not installed: units not verified"
	[ $fails -eq 0 ] && exit 77
	exit 1
fi
root=$(mktemp -d /tmp/tcptune-units-XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/local/bin" "$root/etc/systemd/system" "$root/usr/lib/systemd"
cp -r "$units" "$root/usr/lib/systemd/"
printf '#!/bin/sh\n' >"$root/usr/local/bin/tcptune"
chmod +x "$root/usr/local/bin/tcptune"
cp "$src/contrib/systemd/tcptune-drift.service" \
    "$src/contrib/systemd/tcptune-drift.timer" "$root/etc/systemd/system/"
out=$(systemd-analyze verify --root="$root" \
    /etc/systemd/system/tcptune-drift.service \
    /etc/systemd/system/tcptune-drift.timer 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
	echo "ok - systemd-analyze verify: clean"
else
	echo "not ok - systemd-analyze verify (rc $rc):"
	echo "$out"
	fails=$((fails + 1))
fi
[ $fails -eq 0 ]
