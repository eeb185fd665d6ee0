#!/usr/bin/env bash
# ansible-cfg-compare.sh - `tcptune config --format json` against
# `ansible-config dump --only-changed` (ansible-core 2.14) on the same
# ansible.cfg files, variables and directories: which file is read, each
# value and its origin (file, variable or default); and a malformed file is
# refused by both. No lab, no root. Skips (77) without ansible-config or jq.
#
# usage: ansible-cfg-compare.sh TCPTUNE
set -u
tcptune=$1
if ! command -v ansible-config >/dev/null || ! command -v jq >/dev/null; then
	echo "SKIP: ansible-config or jq is not installed"
	exit 77
fi
tmp=$(mktemp -d /tmp/tcptune-cfg-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
passed=0
failed=0
# Only what each case sets: no ANSIBLE_* of the caller's.
while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep '^ANSIBLE_')
unset TCPTUNE_INVENTORY
export HOME=$tmp/home ANSIBLE_LOCAL_TEMP=$tmp/ansible-tmp
mkdir -p "$HOME"

ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
# verdict STATUS OK-TEXT FAIL-TEXT: after a [[ test ]].
verdict() { if (($1 == 0)); then ok "$2"; else bad "$3"; fi; }

# tcptune's setting name and Ansible's, for the settings both have.
pairs="inventory:DEFAULT_HOST_LIST remote_user:DEFAULT_REMOTE_USER
private_key_file:DEFAULT_PRIVATE_KEY_FILE forks:DEFAULT_FORKS
timeout:DEFAULT_TIMEOUT become:DEFAULT_BECOME become_user:DEFAULT_BECOME_USER
vault_password_file:DEFAULT_VAULT_PASSWORD_FILE
vault_identity_list:DEFAULT_VAULT_IDENTITY_LIST log_path:DEFAULT_LOG_PATH
ask_vault_pass:DEFAULT_ASK_VAULT_PASS become_ask_pass:DEFAULT_BECOME_ASK_PASS
host_key_checking:HOST_KEY_CHECKING"

# ansible-config dump --only-changed as {"NAME": {"value", "origin"}}.
ansible_json() {
	ansible-config dump --only-changed 2>/dev/null | python3 -c '
import ast, json, sys
d = {}
for line in sys.stdin:
    k, _, v = line.rstrip("\n").partition(" = ")
    name, _, origin = k.partition("(")
    try:
        v = ast.literal_eval(v)
    except Exception:
        pass
    d[name] = {"value": v, "origin": origin[:-1]}
print(json.dumps(d))'
}

# compare CASE DIR: run both in DIR with the current environment.
compare() {
	local name=$1 dir=$2 a t p ours theirs ao to
	a=$(cd "$dir" && ansible_json)
	t=$(cd "$dir" && "$tcptune" config --format json 2>/dev/null) || {
		bad "[$name] tcptune config failed"
		return
	}
	ours=$(jq -r '.config_file // "None"' <<<"$t")
	theirs=$(jq -r '.CONFIG_FILE.value // "None"' <<<"$a")
	[[ $ours == "$theirs" ]]
	verdict $? "[$name] both read $ours" \
	    "[$name] config file: tcptune $ours, ansible $theirs"
	for p in $pairs; do
		ours=$(jq -c --arg k "${p%%:*}" '.settings[$k].value |
		    if type == "array" and ($k == "vault_password_file")
		    then .[0] else . end |
		    if . == "strict" then true elif . == "off" then false
		    elif . == [] then null else . end' <<<"$t")
		to=$(jq -r --arg k "${p%%:*}" '.settings[$k].origin' <<<"$t")
		theirs=$(jq -c --arg k "${p#*:}" '.[$k].value' <<<"$a")
		ao=$(jq -r --arg k "${p#*:}" '.[$k].origin // "default"' <<<"$a")
		# "FILE:LINE" is Ansible's "FILE"; "env X" its "env: X".
		to=${to%:[0-9]*}
		to=${to/env /env: }
		if [[ $ao == default ]]; then
			[[ $to == default ]] && continue
			bad "[$name] ${p%%:*}: tcptune $ours from $to, ansible default"
		elif [[ $ours == "$theirs" && $to == "$ao" ]]; then
			ok "[$name] ${p%%:*} = $ours ($to)"
		else
			bad "[$name] ${p%%:*}: tcptune $ours ($to), ansible $theirs ($ao)"
		fi
	done
}

# 1. Every key, in the dialect's corners: ':' and '=', a ';' comment, quotes,
# ~ and relative paths, a continued list, upper-case keys, [DEFAULT].
proj=$tmp/proj
mkdir -p "$proj"
cat >"$proj/ansible.cfg" <<'EOF'
# a project's ansible.cfg
[DEFAULT]
log_path = logs/../ansible.log

[defaults]
inventory = inventory/hosts.yml,
    ~/more-hosts ; a comment
REMOTE_USER: "deploy"
private_key_file = ~/.ssh/id_lab
forks = 3
timeout: 7
host_key_checking = False
vault_password_file = secrets/vault-pass.txt
vault_identity_list = dev@dev.txt, 'prod@prompt'
ask_vault_pass = no
an_unknown_key = is ignored

[privilege_escalation]
become = Yes
become_user = 'postgres'
become_ask_pass = false

[ssh_connection]
pipelining = True
EOF
compare "project file" "$proj"

# 2. Variables win over the file, relative paths then from the current
# directory; ANSIBLE_SSH_TIMEOUT wins over ANSIBLE_TIMEOUT.
ANSIBLE_FORKS=9 ANSIBLE_REMOTE_USER=ops ANSIBLE_INVENTORY=a.yml,b/ \
    ANSIBLE_PRIVATE_KEY_FILE=k/id ANSIBLE_BECOME=off ANSIBLE_TIMEOUT=4 \
    ANSIBLE_HOST_KEY_CHECKING=yes ANSIBLE_VAULT_PASSWORD_FILE=/v \
    compare "variables" "$proj"

# 3. ANSIBLE_CONFIG names a directory elsewhere; ~/.ansible.cfg; a
# world-writable current directory is not read (both warn).
other=$tmp/other
mkdir -p "$other" "$tmp/empty"
printf '[defaults]\nforks = 11\ninventory = ../inv\n' >"$other/ansible.cfg"
ANSIBLE_CONFIG=$other compare "ANSIBLE_CONFIG directory" "$tmp/empty"
ANSIBLE_CONFIG=$tmp/missing.cfg compare "ANSIBLE_CONFIG missing" "$proj"
printf '[defaults]\nremote_user = me\n' >"$HOME/.ansible.cfg"
compare "home file" "$tmp/empty"
open=$tmp/open
mkdir -p "$open"
chmod 0777 "$open"
cp "$proj/ansible.cfg" "$open/"
compare "world-writable cwd" "$open"
err=$(cd "$open" && "$tcptune" config 2>&1 >/dev/null)
[[ $err == *"ignoring $open/ansible.cfg: the current directory is world-writable"* ]]
verdict $? "world-writable cwd: tcptune warns" "no warning: $err"
rm -f "$HOME/.ansible.cfg"

# 4. Malformed files: Ansible refuses each, tcptune too, naming the line.
bad_case() {
	local name=$1 text=$2 want=$3 err
	printf '%b' "$text" >"$tmp/bad.cfg"
	if (cd "$tmp/empty" && ANSIBLE_CONFIG=$tmp/bad.cfg \
	    ansible-config dump --only-changed >/dev/null 2>&1); then
		bad "[$name] ansible-config accepted it: the case proves nothing"
	fi
	err=$(cd "$tmp/empty" && ANSIBLE_CONFIG=$tmp/bad.cfg "$tcptune" config 2>&1)
	local rc=$?
	[[ $rc == 1 && $err == "tcptune: error: $tmp/bad.cfg:$want" ]]
	verdict $? "[$name] refused: $err" \
	    "[$name] expected exit 1 and '$tmp/bad.cfg:$want', got $rc: $err"
}
bad_case "no section" 'forks = 3\n' "1: no [section] header before this line"
bad_case "not a key" '[defaults]\nforks = 3\njust words\n' \
    "3: not a [section], a 'key = value' line or a comment"
bad_case "duplicate key" '[defaults]\nforks = 3\n\nForks: 4\n' \
    "4: duplicate key 'forks' in [defaults]"
bad_case "duplicate section" '[defaults]\n[ssh_connection]\n[defaults]\n' \
    "3: duplicate section [defaults]"
bad_case "byte order mark" '\xef\xbb\xbf[defaults]\n' \
    "1: starts with a byte order mark (Ansible does not read it either)"
# Latin-1, not UTF-8, in a comment: both read it.
printf '[defaults]\n# caf\xe9\nforks = 6\n' >"$tmp/latin1.cfg"
ANSIBLE_CONFIG=$tmp/latin1.cfg compare "Latin-1 comment" "$tmp/empty"

# 5. A value Ansible cannot convert, nor tcptune; and one tcptune refuses
# where Ansible takes any word as false.
printf '[defaults]\nforks = many\n' >"$tmp/val.cfg"
err=$(cd "$tmp/empty" && ANSIBLE_CONFIG=$tmp/val.cfg "$tcptune" config 2>&1)
[[ $err == "tcptune: error: $tmp/val.cfg:2: forks: invalid value 'many': expected an integer 1..1000" ]]
verdict $? "bad integer named with file:line and key" "bad integer: $err"
err=$(cd "$tmp/empty" && ANSIBLE_HOST_KEY_CHECKING=Flase "$tcptune" config 2>&1)
[[ $err == "tcptune: error: env ANSIBLE_HOST_KEY_CHECKING: invalid value 'Flase': expected a boolean (yes/no, true/false, on/off, 1/0)" ]]
verdict $? "bad boolean named with its variable" "bad boolean: $err"

# A control byte in a value is refused and never echoed as it is.
err=$(cd "$tmp/empty" && ANSIBLE_BECOME_USER=$'a\e[2Jb' "$tcptune" config 2>&1)
[[ $err == "tcptune: error: env ANSIBLE_BECOME_USER: invalid value 'a\x1b[2Jb': a control character or a line break in the value" ]]
verdict $? "control byte refused, shown as \\x1b" "control byte: $(printf %q "$err")"

echo "ansible-cfg-compare: $passed passed, $failed failed"
((failed == 0))
