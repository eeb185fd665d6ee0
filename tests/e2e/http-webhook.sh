#!/bin/sh
# webhook_post (lib/report/webhook.c) through tests/e2e/webhook-driver against
# tests/e2e/http-server: the recorded body is the summary plus a Slack
# "text"; a 500 is retried after 1 s; 500 three times fails naming the
# attempts; a 404 is not retried; connection refused is retried then fails;
# a slow receiver hits the 10 s timeout. The webhook URL's path and query
# are its secret: no message shows them (the URL is "http://host:port/…"),
# not even when the receiver quotes them back, nor when `tcptune drift`
# takes the URL from $TCPTUNE_WEBHOOK.
# usage: http-webhook.sh HTTP_SERVER WEBHOOK_DRIVER TCPTUNE
set -u
server=${1:?usage: http-webhook.sh HTTP_SERVER WEBHOOK_DRIVER TCPTUNE}
driver=${2:?}
tcptune=${3:?}

dir=$(mktemp -d /tmp/tcptune-http-hook-XXXXXX)
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
elapsed() { sed -n 's/^elapsed_ms //p' "$1"; }

start_server() {
	rm -f "$dir/port"
	"$server" -f "$dir/port" "$@" &
	spid=$!
	i=0
	while [ ! -s "$dir/port" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	port=$(cat "$dir/port")
	url="http://127.0.0.1:$port/hook/T0001/B0002/$secret?sig=$sig"
	shown="http://127.0.0.1:$port/…"
}
stop_server() {
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=
}
requests() { grep -c '^POST /hook/' "$dir/headers"; }
secret=XXsecretXX sig=q5ecretq5
# no_secret FILE: neither secret part of the URL is in FILE
no_secret() { ! grep -qF -e "$secret" -e "$sig" "$1"; }

cat >"$dir/summary.json" <<'JSON'
{"drift": true,
 "hosts": {"in_sync": 5, "drifted": 1, "unreachable": 1, "failed": 0},
 "items": [{"host": "web1", "key": "net.ipv4.tcp_rmem",
            "expected": "4096 131072 33554432", "live": "4096 131072 6291456",
            "cause": "overridden by /etc/sysctl.d/99-z.conf"},
           {"host": "web1", "key": "qdisc eth0", "expected": "fq",
            "live": "pfifo_fast", "cause": "value <changed> & reset"}],
 "playbook": "drift-check.yml"}
JSON

# accepted at once
start_server -b "$dir/bodies" -H "$dir/headers"
"$driver" post "$url" "$dir/summary.json" >"$dir/out"
check "post: ok" [ $? -eq 0 ]
check "post: one request" [ "$(requests)" = 1 ]
check "post: JSON content type" contains "$dir/headers" \
    "Content-Type: application/json"
check "post: body has text" contains "$dir/bodies" '"text":"tcptune drift: DRIFT: 1 drifted, 5 in sync, 1 unreachable, 0 failed'
check "post: text escapes < > &" contains "$dir/bodies" \
    'value &lt;changed&gt; &amp; reset'
check "post: body keeps the summary" contains "$dir/bodies" \
    '"playbook":"drift-check.yml"'
check "post: body keeps the items" contains "$dir/bodies" \
    '"live":"4096 131072 6291456"'
stop_server

# 500 then 200: retried once, after about 1 s
: >"$dir/headers"; : >"$dir/bodies"
start_server -s 500 -b "$dir/bodies" -H "$dir/headers"
"$driver" post "$url" "$dir/summary.json" >"$dir/out"
check "500 then 200: ok" [ $? -eq 0 ]
check "500 then 200: two requests" [ "$(requests)" = 2 ]
check "500 then 200: waited 1 s" [ "$(elapsed "$dir/out")" -ge 900 ]
stop_server

# 500 three times: fails after 1 s + 2 s of waiting
: >"$dir/headers"
start_server -s 500,500,500,200 -H "$dir/headers"
"$driver" post "$url" "$dir/summary.json" >"$dir/out"
check "500 x3: fails" [ $? -eq 1 ]
check "500 x3: three requests" [ "$(requests)" = 3 ]
check "500 x3: message" contains "$dir/out" \
    "error: POST $shown: HTTP 500: error 500 (3 attempts)"
check "500 x3: no secret in the message" no_secret "$dir/out"
check "500 x3: waited 1 s + 2 s" [ "$(elapsed "$dir/out")" -ge 2900 ]
stop_server

# 404: a client error is final
: >"$dir/headers"
start_server -s 404 -H "$dir/headers"
"$driver" post "$url" "$dir/summary.json" >"$dir/out"
check "404: fails" [ $? -eq 1 ]
check "404: not retried" [ "$(requests)" = 1 ]
check "404: message" contains "$dir/out" "error: POST $shown: HTTP 404: error 404"
check "404: no secret in the message" no_secret "$dir/out"
stop_server

# a receiver that quotes the request target in its error body
start_server -e -s 404
"$driver" post "$url" "$dir/summary.json" >"$dir/out"
check "echoing 404: fails" [ $? -eq 1 ]
check "echoing 404: message" contains "$dir/out" \
    "error: POST $shown: HTTP 404: error 404 for …"
check "echoing 404: no secret in the message" no_secret "$dir/out"
stop_server

# connection refused: retried, then the error names the URL
fport=$("$driver" freeport)
"$driver" post "http://127.0.0.1:$fport/hook/$secret?sig=$sig" \
    "$dir/summary.json" >"$dir/out"
check "refused: fails" [ $? -eq 1 ]
check "refused: message" contains "$dir/out" \
    "error: POST http://127.0.0.1:$fport/…: "
check "refused: no secret in the message" no_secret "$dir/out"
check "refused: retried" contains "$dir/out" "(3 attempts)"
check "refused: backed off 1 s + 2 s" [ "$(elapsed "$dir/out")" -ge 2900 ]

# a receiver slower than the 10 s timeout: one attempt, then an error
start_server -d 12000
"$driver" post "$url" "$dir/summary.json" >"$dir/out"
check "slow: fails" [ $? -eq 1 ]
check "slow: timed out" grep -qi "timed out" "$dir/out"
check "slow: within the timeout" [ "$(elapsed "$dir/out")" -lt 11500 ]
stop_server

# ---- through tcptune drift, the URL from $TCPTUNE_WEBHOOK ----
# One host on a port where nothing listens: unreachable at once, then the
# summary is posted to a receiver that answers 500 and quotes the target.
cat >"$dir/inv.yml" <<EOF2
all:
  hosts:
    h1: {ansible_host: 127.0.0.1, ansible_port: $fport}
EOF2
cat >"$dir/play.yml" <<'EOF2'
- hosts: all
  gather_facts: false
  tasks:
    - name: one key
      sysctl:
        values: {net.core.rmem_max: 1}
EOF2
: >"$dir/headers"
start_server -e -s 500,500,500 -H "$dir/headers"
TCPTUNE_WEBHOOK=$url "$tcptune" drift "$dir/play.yml" -i "$dir/inv.yml" \
    >"$dir/out" 2>"$dir/err"
check "drift: unreachable host, exit 4" [ $? -eq 4 ]
check "drift: webhook tried 3 times" [ "$(requests)" = 3 ]
check "drift: failure reported" contains "$dir/err" \
    "tcptune: error: webhook not delivered: POST $shown: HTTP 500: error 500 for … (3 attempts)"
check "drift: no secret on stderr" no_secret "$dir/err"
check "drift: no secret on stdout" no_secret "$dir/out"
stop_server

# a webhook without its scheme is refused before anything runs, and the
# refusal does not quote its path either
TCPTUNE_WEBHOOK="hooks.example/services/T0001/$secret" "$tcptune" drift \
    "$dir/play.yml" -i "$dir/inv.yml" >"$dir/out" 2>"$dir/err"
check "drift: bad webhook, exit 1" [ $? -eq 1 ]
check "drift: bad webhook, message" contains "$dir/err" \
    "--webhook: 'hooks.example/…' is not an http:// or https:// URL"
check "drift: bad webhook, no secret" no_secret "$dir/err"

echo "# $checks checks, $fails failed"
[ "$fails" -eq 0 ]
