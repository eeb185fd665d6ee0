#!/bin/sh
# TLS verification of dynamic inventories against openssl s_server on
# loopback with a throw-away CA: an unknown CA fails with curl's message,
# TCPTUNE_CA_BUNDLE makes it work, a name the certificate does not carry
# fails even with the CA, TCPTUNE_INSECURE_TLS=1 works with a loud warning.
# usage: http-tls.sh TCPTUNE WEBHOOK_DRIVER
# Exit 77 (skipped) when the openssl program is not installed.
set -u
tcptune=${1:?usage: http-tls.sh TCPTUNE WEBHOOK_DRIVER}
driver=${2:?}
# absolute paths: the test runs in its temporary directory
tcptune=$(cd "$(dirname "$tcptune")" && pwd)/$(basename "$tcptune")
driver=$(cd "$(dirname "$driver")" && pwd)/$(basename "$driver")
command -v openssl >/dev/null 2>&1 || { echo "openssl not installed: skipped"; exit 77; }

dir=$(mktemp -d /tmp/tcptune-http-tls-XXXXXX)
spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

fails=0 checks=0
ok() { checks=$((checks + 1)); echo "ok - $1"; }
not_ok() { checks=$((checks + 1)); fails=$((fails + 1)); echo "not ok - $1"; }
check() {
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
contains() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }

cd "$dir" || exit 1
# a CA and a server certificate for IP 127.0.0.1 only
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout ca.key -out ca.pem -days 2 -subj "/CN=tcptune test CA" \
    2>/dev/null || { echo "cannot make a CA"; exit 1; }
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout srv.key -out srv.csr -subj "/CN=127.0.0.1" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >ext.cnf
openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
    -out srv.pem -days 2 -extfile ext.cnf 2>/dev/null ||
    { echo "cannot sign the server certificate"; exit 1; }
printf '{"web": ["w1"], "_meta": {"hostvars": {"w1": {"a": 1}}}}\n' >inv.json
printf '{"_meta": {"hostvars": {"w1": {"a": 1}}}, "all": {"children": ["ungrouped", "web"]}, "web": {"hosts": ["w1"]}}\n' >expected.json

port=$("$driver" freeport)
[ -n "$port" ] || { echo "cannot find a free port"; exit 1; }
# -WWW serves files of the working directory; "ACCEPT" once it listens
openssl s_server -accept "127.0.0.1:$port" -cert srv.pem -key srv.key \
    -WWW >server.log 2>&1 &
spid=$!
i=0
while ! grep -q ACCEPT server.log && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
url=https://127.0.0.1:$port/inv.json
shown="https://127.0.0.1:$port/…"	# what messages show of it

env -u TCPTUNE_CA_BUNDLE -u TCPTUNE_INSECURE_TLS "$tcptune" inventory \
    -i "$url" --list >out.json 2>err
check "unknown CA: exit 1" [ $? -eq 1 ]
check "unknown CA: curl's message with the URL" contains err \
    "GET $shown: SSL certificate problem"
check "unknown CA: not retried" lacks err "attempts"

TCPTUNE_CA_BUNDLE=$dir/ca.pem "$tcptune" inventory -i "$url" --list \
    >out.json 2>err
check "CA bundle: exit 0" [ $? -eq 0 ]
check "CA bundle: --list as expected" "$driver" json-equal out.json \
    expected.json
check "CA bundle: no warning" lacks err "warning"

TCPTUNE_CA_BUNDLE=$dir/ca.pem "$tcptune" inventory \
    -i "https://localhost:$port/inv.json" --list >out.json 2>err
check "wrong name: exit 1" [ $? -eq 1 ]
check "wrong name: curl's message" grep -q \
    "GET https://localhost:$port/…: SSL: no alternative certificate subject name matches target host name 'localhost'" err

TCPTUNE_INSECURE_TLS=1 "$tcptune" inventory -i "$url" --list >out.json 2>err
check "insecure: exit 0" [ $? -eq 0 ]
check "insecure: --list as expected" "$driver" json-equal out.json \
    expected.json
check "insecure: loud warning" contains err \
    "[WARNING]: inventory TLS certificate verification is OFF for '$shown' (TCPTUNE_INSECURE_TLS=1)"

TCPTUNE_INSECURE_TLS=yes "$tcptune" inventory -i "$url" --list >out.json 2>err
check "only '1' turns verification off" contains err "SSL certificate problem"

echo "# $checks checks, $fails failed"
[ "$fails" -eq 0 ]
