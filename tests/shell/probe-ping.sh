#!/bin/bash
# probe-ping.sh - lib/remote/probe.sh under dash hands each RTT target to ping after
# "--", so that a peer named like an option ("-f...": flood) is a name, never
# an option. ping is a stub (TCPTUNE_TEST_ROOT/bin) that echoes its
# arguments in the line the probe reports; the rest of the probe only reads.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "$0")/lib.sh"
sh_init probe-ping

R=$SH_TMP/root
mkdir -p "$R/bin"
cat >"$R/bin/ping" <<'STUB'
#!/bin/sh
echo "3 packets transmitted, 3 received, 0% packet loss, time 401ms"
echo "rtt min/avg/max/mdev = 0.1/0.1/0.1/0.0 ms, args: $*"
STUB
chmod 0755 "$R/bin/ping"

OUT=$(TCPTUNE_TEST_ROOT=$R call probe "$PROBE_SH" \
    TARGETS="$(sh_words -fqc1 192.0.2.7)" ONLY=)
assert_block "a target like an option comes after --" \
    $'@rtt -fqc1\nloss=3 packets transmitted, 3 received, 0% packet loss, time 401ms\nping=rtt min/avg/max/mdev = 0.1/0.1/0.1/0.0 ms, args: -c 3 -i 0.2 -W 2 -q -- -fqc1'
assert_line "a plain target too" \
    "ping=rtt min/avg/max/mdev = 0.1/0.1/0.1/0.0 ms, args: -c 3 -i 0.2 -W 2 -q -- 192.0.2.7"
assert_line "the probe ends" "@end"

sh_finish
