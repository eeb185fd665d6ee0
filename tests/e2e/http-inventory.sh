#!/bin/sh
# Dynamic inventories: `tcptune inventory -i http://127.0.0.1:PORT/...` against
# tests/e2e/http-server (token header, 404, garbage JSON, a 503 retried,
# connection refused; credentials, a token in the query string and the
# path kept out of messages, which show "http://127.0.0.1:PORT/…") and
# executable inventory scripts (--list, --host fallback, a failing script,
# bad JSON, an executable YAML file that is not a script, and a clean
# environment: no TCPTUNE_* secret reaches a script, PATH does). Compared with a hand-written
# expected --list, and with ansible-inventory on the same script when it is
# installed.
# usage: http-inventory.sh TCPTUNE HTTP_SERVER WEBHOOK_DRIVER
set -u
tcptune=${1:?usage: http-inventory.sh TCPTUNE HTTP_SERVER WEBHOOK_DRIVER}
server=${2:?}
driver=${3:?}

dir=$(mktemp -d /tmp/tcptune-http-inv-XXXXXX)
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
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
contains() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }

# start_server ARGS...: runs http-server in the background, sets $port.
start_server() {
	rm -f "$dir/port"
	"$server" -f "$dir/port" "$@" &
	spid=$!
	i=0
	while [ ! -s "$dir/port" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	port=$(cat "$dir/port")
}
stop_server() {
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=
}

cat >"$dir/inv.json" <<'JSON'
{
  "web": {"hosts": ["web1", "web2"], "vars": {"tcptune_peer": "db1"},
          "children": ["edge"]},
  "edge": ["edge1"],
  "db": {"hosts": ["db1"]},
  "_meta": {"hostvars": {
    "web1": {"ansible_host": "198.18.1.1"},
    "db1": {"ansible_port": 2222, "note": "quote \" and \\ here"}}}
}
JSON
cat >"$dir/expected.json" <<'JSON'
{
  "_meta": {"hostvars": {
    "web1": {"ansible_host": "198.18.1.1", "tcptune_peer": "db1"},
    "web2": {"tcptune_peer": "db1"},
    "edge1": {"tcptune_peer": "db1"},
    "db1": {"ansible_port": 2222, "note": "quote \" and \\ here"}}},
  "all": {"children": ["ungrouped", "web", "db"]},
  "web": {"hosts": ["web1", "web2"], "children": ["edge"]},
  "edge": {"hosts": ["edge1"]},
  "db": {"hosts": ["db1"]}
}
JSON

# ---- over HTTP ----
start_server -G /inv.json="$dir/inv.json" -H "$dir/headers"
url=http://127.0.0.1:$port/inv.json
TCPTUNE_INVENTORY_TOKEN=s3cret-token "$tcptune" inventory -i "$url" --list \
    >"$dir/out.json" 2>"$dir/err"
check "http: exit 0" [ $? -eq 0 ]
check "http: --list as expected" "$driver" json-equal "$dir/out.json" \
    "$dir/expected.json"
check "http: bearer token sent" contains "$dir/headers" \
    "Authorization: Bearer s3cret-token"
check "http: token not in output" lacks "$dir/err" "s3cret"
check "http: no warning for loopback" lacks "$dir/err" "warning"
check "http: GET of the path" contains "$dir/headers" "GET /inv.json HTTP/1.1"

# without a token: no Authorization header at all
: >"$dir/headers"
env -u TCPTUNE_INVENTORY_TOKEN "$tcptune" inventory -i "$url" --list \
    >/dev/null 2>&1
check "http: no token, no Authorization" lacks "$dir/headers" "Authorization"

# 404 names the server, not the path
shown="http://127.0.0.1:$port/…"
"$tcptune" inventory -i "http://127.0.0.1:$port/missing.json" --list \
    >/dev/null 2>"$dir/err"
check "404: exit 1" [ $? -eq 1 ]
check "404: message" contains "$dir/err" "GET $shown: HTTP 404"

# user:password in the URL stays out of messages
"$tcptune" inventory -i "http://alice:hunter2@127.0.0.1:$port/missing.json" \
    --list >/dev/null 2>"$dir/err"
check "credentials: still an error" contains "$dir/err" "HTTP 404"
check "credentials: password not shown" lacks "$dir/err" "hunter2"
check "credentials: user not shown" lacks "$dir/err" "alice"
stop_server

# a token in the query string: used, never shown, even when the server
# quotes the request target back in its error
secret=q5ecretq5
start_server -e -G /inv.json="$dir/inv.json" -H "$dir/headers"
shown="http://127.0.0.1:$port/…"
"$tcptune" inventory -i "http://127.0.0.1:$port/inv.json?token=$secret" \
    --list >"$dir/out.json" 2>"$dir/err"
check "query token: exit 0" [ $? -eq 0 ]
check "query token: --list as expected" "$driver" json-equal \
    "$dir/out.json" "$dir/expected.json"
"$tcptune" inventory -i "http://127.0.0.1:$port/gone.json?token=$secret" \
    --list >/dev/null 2>"$dir/err"
check "query token, 404: message" contains "$dir/err" \
    "GET $shown: HTTP 404: … not found"
check "query token, 404: token not shown" lacks "$dir/err" "$secret"
stop_server
start_server -g
"$tcptune" inventory -i "http://127.0.0.1:$port/inv.json?token=$secret" \
    --list >/dev/null 2>"$dir/err"
check "query token, bad JSON: message" contains "$dir/err" \
    "http://127.0.0.1:$port/…: invalid JSON at line 1 column"
check "query token, bad JSON: token not shown" lacks "$dir/err" "$secret"
stop_server

# garbage JSON
start_server -g
"$tcptune" inventory -i "http://127.0.0.1:$port/inv.json" --list \
    >/dev/null 2>"$dir/err"
check "bad JSON: exit 1" [ $? -eq 1 ]
check "bad JSON: message" contains "$dir/err" \
    "http://127.0.0.1:$port/…: invalid JSON at line 1 column"
stop_server

# a 503 then the inventory: retried after 1 s
: >"$dir/headers"
start_server -s 503 -G /inv.json="$dir/inv.json" -H "$dir/headers"
"$tcptune" inventory -i "http://127.0.0.1:$port/inv.json" --list \
    >"$dir/out.json" 2>"$dir/err"
check "503 then 200: exit 0" [ $? -eq 0 ]
check "503 then 200: two requests" [ "$(grep -c '^GET ' "$dir/headers")" = 2 ]
check "503 then 200: --list as expected" "$driver" json-equal \
    "$dir/out.json" "$dir/expected.json"
stop_server

# a 503 every time: the error says how many attempts
start_server -s 503,503,503
"$tcptune" inventory -i "http://127.0.0.1:$port/inv.json" --list \
    >/dev/null 2>"$dir/err"
check "503 x3: message" contains "$dir/err" \
    "GET http://127.0.0.1:$port/…: HTTP 503: error 503 (3 attempts)"
stop_server

# connection refused
fport=$("$driver" freeport)
"$tcptune" inventory -i "http://127.0.0.1:$fport/inv.json" --list \
    >/dev/null 2>"$dir/err"
check "refused: exit 1" [ $? -eq 1 ]
check "refused: names the server" contains "$dir/err" \
    "GET http://127.0.0.1:$fport/…: "
check "refused: curl's reason" grep -qi "connect" "$dir/err"
check "refused: retried" contains "$dir/err" "(3 attempts)"

# a token never goes over plain http to a non-loopback host (refused before
# any connection is made)
TCPTUNE_INVENTORY_TOKEN=s3cret-token "$tcptune" inventory \
    -i "http://198.18.0.1:9/inv.json" --list >/dev/null 2>"$dir/err"
check "plain http token: refused" contains "$dir/err" \
    "refusing to send a bearer token over plain http"
check "plain http token: token not shown" lacks "$dir/err" "s3cret"

# ---- executable scripts ----
mkdir "$dir/scripts"
cat >"$dir/scripts/list.sh" <<EOF2
#!/bin/sh
case "\$1" in
--list) cat '$dir/inv.json' ;;
--host) echo '{}' ;;
*) echo "usage: \$0 --list | --host H" >&2; exit 2 ;;
esac
EOF2
chmod +x "$dir/scripts/list.sh"
"$tcptune" inventory -i "$dir/scripts/list.sh" --list >"$dir/out.json" \
    2>"$dir/err"
check "script: exit 0" [ $? -eq 0 ]
check "script: --list as expected" "$driver" json-equal "$dir/out.json" \
    "$dir/expected.json"

# old style: no _meta, variables from --host NAME
cat >"$dir/scripts/old.sh" <<'EOF2'
#!/bin/sh
case "$1" in
--list) echo '{"web": ["w1", "w2"], "db": {"hosts": ["d1"]}}' ;;
--host) printf '{"who": "%s"}\n' "$2" ;;
esac
EOF2
chmod +x "$dir/scripts/old.sh"
"$tcptune" inventory -i "$dir/scripts/old.sh" --host w2 >"$dir/out.json" \
    2>"$dir/err"
check "old script: --host fallback" contains "$dir/out.json" '"who": "w2"'

cat >"$dir/scripts/fail.sh" <<'EOF2'
#!/bin/sh
echo "boom: cannot reach the CMDB" >&2
echo "second line" >&2
exit 3
EOF2
chmod +x "$dir/scripts/fail.sh"
"$tcptune" inventory -i "$dir/scripts/fail.sh" --list >/dev/null 2>"$dir/err"
check "failing script: exit 1" [ $? -eq 1 ]
check "failing script: status and first stderr line" contains "$dir/err" \
    "inventory script '$dir/scripts/fail.sh' exited with status 3: boom: cannot reach the CMDB"
check "failing script: only the first line" lacks "$dir/err" "second line"

printf '#!/bin/sh\necho "{\\"web\\": [\\"w1\\",]}"\n' >"$dir/scripts/bad.sh"
chmod +x "$dir/scripts/bad.sh"
"$tcptune" inventory -i "$dir/scripts/bad.sh" --list >/dev/null 2>"$dir/err"
check "bad JSON script: exit 1" [ $? -eq 1 ]
check "bad JSON script: message" contains "$dir/err" \
    "$dir/scripts/bad.sh --list: invalid JSON at line 1 column"

# a script's environment, printed as host vars of "env": the secrets of
# tcptune's own (and every TCPTUNE_* variable) are not there; PATH, the
# locale and ANSIBLE_* are, and a variable named in
# TCPTUNE_INVENTORY_SCRIPT_ENV
cat >"$dir/scripts/env.sh" <<'EOF2'
#!/bin/sh
printf '{"all": {"hosts": ["env"]}, "_meta": {"hostvars": {"env": {'
printf '"path": "%s"' "$PATH"
for name in $(awk 'BEGIN { for (k in ENVIRON) print k }' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$'); do
	printf ', "env_%s": true' "$name"
done
printf '}}}}
'
EOF2
chmod +x "$dir/scripts/env.sh"
TCPTUNE_INVENTORY_TOKEN=s3cret-token \
    TCPTUNE_WEBHOOK=https://hooks.example/services/XXsecretXX \
    TCPTUNE_CA_BUNDLE=/nonexistent/ca.pem LC_ALL=C \
    ANSIBLE_INVENTORY_CACHE=1 CMDB_TOKEN=cmdb-s3cret OTHER_TOKEN=o-s3cret \
    TCPTUNE_INVENTORY_SCRIPT_ENV=CMDB_TOKEN \
    "$tcptune" inventory -i "$dir/scripts/env.sh" --host env \
    >"$dir/out.json" 2>"$dir/err"
check "script env: exit 0" [ $? -eq 0 ]
check "script env: PATH kept" contains "$dir/out.json" "\"path\": \"$PATH\""
check "script env: PATH set" contains "$dir/out.json" '"env_PATH": true'
check "script env: locale kept" contains "$dir/out.json" '"env_LC_ALL": true'
check "script env: ANSIBLE_* kept" contains "$dir/out.json" \
    '"env_ANSIBLE_INVENTORY_CACHE": true'
check "script env: a variable asked for kept" contains "$dir/out.json" \
    '"env_CMDB_TOKEN": true'
check "script env: no inventory token" lacks "$dir/out.json" \
    "TCPTUNE_INVENTORY_TOKEN"
check "script env: no webhook" lacks "$dir/out.json" "TCPTUNE_WEBHOOK"
check "script env: no TCPTUNE_* at all" lacks "$dir/out.json" "TCPTUNE_"
check "script env: others dropped" lacks "$dir/out.json" "OTHER_TOKEN"

# an executable YAML file is data, not a script
mkdir "$dir/yaml"
printf 'all:\n  hosts:\n    y1:\n' >"$dir/yaml/hosts"
chmod +x "$dir/yaml/hosts"
"$tcptune" inventory -i "$dir/yaml/hosts" --list >"$dir/out.json" 2>"$dir/err"
check "executable YAML: read as YAML" contains "$dir/out.json" '"y1"'

# scripts inside an inventory directory run too (as in Ansible)
mkdir "$dir/invdir"
cp "$dir/scripts/old.sh" "$dir/invdir/cmdb"
printf 'all:\n  hosts:\n    y1:\n' >"$dir/invdir/static.yml"
"$tcptune" inventory -i "$dir/invdir" --list >"$dir/out.json" 2>"$dir/err"
check "directory with a script: script hosts" contains "$dir/out.json" '"w1"'
check "directory with a script: static hosts" contains "$dir/out.json" '"y1"'

# the same script through ansible-inventory, when it is installed
if command -v ansible-inventory >/dev/null 2>&1; then
	(cd "$dir" && ANSIBLE_LOCAL_TEMP="$dir/tmp" ANSIBLE_HOME="$dir/home" \
	    ansible-inventory -i "$dir/scripts/list.sh" --list \
	    >"$dir/ansible.json" 2>/dev/null)
	check "script: same --list as ansible-inventory" "$driver" json-equal \
	    "$dir/ansible.json" "$dir/expected.json"
	(cd "$dir" && ANSIBLE_LOCAL_TEMP="$dir/tmp" ANSIBLE_HOME="$dir/home" \
	    ansible-inventory -i "$dir/scripts/old.sh" --list \
	    >"$dir/ansible.json" 2>/dev/null)
	"$tcptune" inventory -i "$dir/scripts/old.sh" --list >"$dir/out.json"
	check "old script: same --list as ansible-inventory" "$driver" \
	    json-equal "$dir/ansible.json" "$dir/out.json"
else
	echo "# ansible-inventory not installed: comparison skipped"
fi

echo "# $checks checks, $fails failed"
[ "$fails" -eq 0 ]
