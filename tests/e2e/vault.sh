#!/bin/bash
# vault.sh - Ansible Vault end to end (docs/vault.md). Everything vaulted is
# made here by ansible-vault (ansible-core 2.14), with the password files of
# tests/data/vault/:
#   1. an inventory with a whole-file vaulted group_vars file (id default),
#      a vaulted host_vars file (1.2, id prod) and inline !vault values of
#      both ids: `tcptune inventory --list` and `--host` equal
#      ansible-inventory's (jq -S) with --vault-password-file, with
#      --vault-id label@file (two ids), with an executable password script,
#      and with --ask-vault-pass typed on a pty;
#   2. no password and a wrong one: exit 1 naming the file (or the host and
#      variable), like ansible-inventory failing;
#   3. a play on a lab host uses the decrypted secrets (a file vaulted whole,
#      an inline inventory value, an inline play var): the host gets the
#      plaintext, while text, -vv, JSON and error output show <vaulted>.
# Usage: vault.sh [TCPTUNE]. Exit 77 when not root or without ansible.
# jq programs and vault headers are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
if ! command -v ansible-vault >/dev/null 2>&1 ||
    ! command -v ansible-inventory >/dev/null 2>&1; then
	echo "vault: SKIP: ansible-vault/ansible-inventory not installed"
	exit 77
fi
e2e_init vault "${1:-}"

data=$E2E_SRC/tests/data/vault
W=$E2E_TMP/w
mkdir -p "$W/inv/group_vars" "$W/inv/host_vars" "$W/home"
export ANSIBLE_HOME=$W/home ANSIBLE_LOCAL_TEMP=$W/home/tmp
# Ansible reads the ids as given; no ansible.cfg from elsewhere
: >"$W/home/ansible.cfg"
export ANSIBLE_CONFIG=$W/home/ansible.cfg
unset ANSIBLE_VAULT_PASSWORD_FILE ANSIBLE_VAULT_IDENTITY_LIST
DEF=$data/default.pass
PROD=$data/prod.pass
FILE_SECRET=s3cr3t-file-value
HOST_SECRET=pr0d-host-value
INLINE_DEFAULT=inline-default-s3cret
INLINE_PROD=inline-prod-s3cret
PLAY_SECRET=play-vars-s3cret
SECRETS=("$FILE_SECRET" "$HOST_SECRET" "$INLINE_DEFAULT" "$INLINE_PROD"
    "$PLAY_SECRET")

# inline NAME VALUE VAULT-ID-ARGS...: a `NAME: !vault |` block
inline() {
	local name=$1 value=$2
	shift 2
	ansible-vault encrypt_string "$@" "$value" --name "$name" 2>/dev/null
	echo
}

# vaulted FILE VAULT-ID-ARGS...: FILE encrypted in place
vaulted() {
	local f=$1
	shift
	ansible-vault encrypt "$@" "$f" >/dev/null 2>&1 ||
	    e2e_fail "ansible-vault encrypt $f"
}

# check DESC CMD...: ok when CMD succeeds
check() {
	local desc=$1
	shift
	if "$@" >/dev/null; then
		e2e_ok "$desc"
	else
		e2e_fail "$desc"
	fi
}

# The lab: one host, its inventory under the vaulted vars.
e2e_lab_up 1 vlt 198.18.161
H=${HOSTS[0]}
cp "$LAB_INVENTORY" "$W/inv/hosts.yml"
printf 'app_secret: %s\nport: 5432\n' "$FILE_SECRET" >"$W/inv/group_vars/lab.yml"
vaulted "$W/inv/group_vars/lab.yml" --vault-password-file "$DEF"
printf 'host_secret: %s\n' "$HOST_SECRET" >"$W/inv/host_vars/$H.yml"
vaulted "$W/inv/host_vars/$H.yml" --vault-id "prod@$PROD"
{
	echo "plain_value: visible"
	inline db_password "$INLINE_DEFAULT" --vault-password-file "$DEF"
	inline api_token "$INLINE_PROD" --vault-id "prod@$PROD"
} >"$W/inv/group_vars/all.yml"
check "group_vars/lab.yml is vaulted whole (1.1)" \
    grep -q '^\$ANSIBLE_VAULT;1.1;AES256$' "$W/inv/group_vars/lab.yml"
check "host_vars/$H.yml is vaulted whole (1.2, id prod)" \
    grep -q '^\$ANSIBLE_VAULT;1.2;AES256;prod$' "$W/inv/host_vars/$H.yml"

# A password script, as Ansible runs one: what it prints, line ends
# stripped (blanks are kept, unlike a file's), is the password.
cat >"$W/prod-pass.sh" <<'EOF'
#!/bin/sh
printf 'second secret\r\n'
EOF
chmod +x "$W/prod-pass.sh"

cd "$W" || exit 1

# compare DESC ARGS...: inventory --list with ARGS, both tools, jq -S.
compare() {
	local desc=$1
	shift
	e2e_run 60 "$TCPTUNE" inventory -i inv "$@"
	if [[ $RUN_RC != 0 ]]; then
		assert_rc "tcptune inventory $desc" 0
		return
	fi
	jq -S . "$E2E_TMP/out" >"$E2E_TMP/t.json"
	ansible-inventory -i inv "$@" 2>"$E2E_TMP/a.err" | jq -S . >"$E2E_TMP/a.json"
	if [[ -s $E2E_TMP/a.json ]] && cmp -s "$E2E_TMP/t.json" "$E2E_TMP/a.json"; then
		e2e_ok "inventory $desc equals ansible-inventory's"
	else
		e2e_fail "inventory $desc differs from ansible-inventory's:"
		diff "$E2E_TMP/t.json" "$E2E_TMP/a.json" | head -20 | sed 's/^/    | /'
		sed 's/^/    a| /' "$E2E_TMP/a.err" | head -5
	fi
}

compare "--list, two password sources" --list \
    --vault-password-file "$DEF" --vault-id "prod@$PROD"
compare "--list, --vault-id default@ and prod@" --list \
    --vault-id "default@$DEF" --vault-id "prod@$PROD"
compare "--list, ids in the other order" --list \
    --vault-id "prod@$PROD" --vault-id "$DEF"
compare "--list, a password script" --list \
    --vault-id "prod@$W/prod-pass.sh" --vault-password-file "$DEF"
compare "--host $H" --host "$H" \
    --vault-password-file "$DEF" --vault-id "prod@$PROD"
check "--host: vaulted files decrypted, inline values as {__ansible_vault}" \
    jq -e --arg s "$FILE_SECRET" --arg h "$HOST_SECRET" \
    '.app_secret == $s and .host_secret == $h and
     (.db_password.__ansible_vault | startswith("$ANSIBLE_VAULT;1.1;AES256\n")) and
     (.api_token.__ansible_vault | startswith("$ANSIBLE_VAULT;1.2;AES256;prod\n"))' \
    "$E2E_TMP/t.json"

# The password file from the environment and from ansible.cfg (resolved by
# cmd/tcptune/settings.c, read by the same keyring), as Ansible reads them.
# Not in a subshell: the pass/fail counters live in this shell.
export ANSIBLE_VAULT_PASSWORD_FILE=$DEF
compare "--list, ANSIBLE_VAULT_PASSWORD_FILE" --list --vault-id "prod@$PROD"
unset ANSIBLE_VAULT_PASSWORD_FILE
printf '[defaults]\nvault_password_file = %s\n' "$DEF" >"$W/home/vault.cfg"
ANSIBLE_CONFIG=$W/home/vault.cfg
compare "--list, ansible.cfg vault_password_file" --list \
    --vault-id "prod@$PROD"
ANSIBLE_CONFIG=$W/home/ansible.cfg

# One password of the two: the file vaulted with the other id fails.
e2e_run 60 "$TCPTUNE" inventory -i inv --list --vault-password-file "$DEF"
assert_rc "a password for one id only exits 1" 1
assert_match "names the host_vars file: HMAC check failed" \
    "tcptune: error: .*host_vars/$H\.yml: vault: HMAC check failed: wrong vault password\?" \
    "$RUN_ERR"

e2e_run 60 "$TCPTUNE" inventory -i inv --list
assert_rc "no password exits 1" 1
assert_match "no password: the message names the file" \
    "^tcptune: error: inv/(group|host)_vars/[^ ]+\.yml: vault-encrypted; give --vault-password-file or --ask-vault-pass$" \
    "$RUN_ERR"
ansible-inventory -i inv --list >/dev/null 2>&1
assert_ne "ansible-inventory fails without a password too" 0 "$?"

printf 'wrong\n' >"$W/wrong.pass"
e2e_run 60 "$TCPTUNE" inventory -i inv --list --vault-password-file "$W/wrong.pass" \
    --vault-id "prod@$W/wrong.pass"
assert_rc "a wrong password exits 1" 1
assert_match "wrong password: names the file, HMAC check failed" \
    "^tcptune: error: inv/(group|host)_vars/[^ ]+\.yml: vault: HMAC check failed: wrong vault password\?$" \
    "$RUN_ERR"

e2e_run 60 "$TCPTUNE" inventory -i inv --list --vault-password-file "$W/nonexistent"
assert_rc "a missing password file exits 1" 1
assert_match "names the missing password file" \
    "vault password file '$W/nonexistent' was not found" "$RUN_ERR"

# --ask-vault-pass and --vault-id prod@prompt, typed on a terminal.
pty_run() {
	local input=$1
	shift
	{ sleep 1; printf '%s' "$input"; sleep 3; } |
	    timeout 30 script -qec "$(printf '%q ' "$TCPTUNE" "$@") >$E2E_TMP/pty.out 2>$E2E_TMP/pty.err" \
	    /dev/null >"$E2E_TMP/pty.log" 2>&1
}
pty_run "$(cat "$DEF")"$'\n' inventory -i inv --list --ask-vault-pass \
    --vault-id "prod@$PROD"
jq -S . "$E2E_TMP/pty.out" >"$E2E_TMP/p.json" 2>/dev/null
ansible-inventory -i inv --list --vault-password-file "$DEF" \
    --vault-id "prod@$PROD" 2>/dev/null | jq -S . >"$E2E_TMP/a.json"
if cmp -s "$E2E_TMP/p.json" "$E2E_TMP/a.json"; then
	e2e_ok "--ask-vault-pass on a pty: --list equals ansible-inventory's"
else
	e2e_fail "--ask-vault-pass on a pty: --list differs"
	sed 's/^/    | /' "$E2E_TMP/pty.log" "$E2E_TMP/pty.err" | head
fi
assert_match "the prompt is 'Vault password: '" "Vault password: " \
    "$(cat "$E2E_TMP/pty.log")"
if grep -q "$(cat "$DEF")" "$E2E_TMP/pty.log"; then
	e2e_fail "the typed password was echoed"
else
	e2e_ok "the typed password is not echoed"
fi
pty_run "second secret"$'\n' inventory -i inv --list \
    --vault-id "prod@prompt" --vault-password-file "$DEF"
assert_match "--vault-id prod@prompt asks 'Vault password (prod): '" \
    "Vault password \(prod\): " "$(cat "$E2E_TMP/pty.log")"
check "--vault-id prod@prompt decrypts the prod file" \
    jq -e --arg h "$HOST_SECRET" '._meta.hostvars[].host_secret == $h' \
    "$E2E_TMP/pty.out"

# 3. The play: the host gets the plaintext; output never shows it.
{
	echo "- name: vault secrets"
	echo "  hosts: lab"
	echo "  gather_facts: false"
	echo "  vars:"
	inline play_secret "$PLAY_SECRET" --vault-password-file "$DEF" |
	    sed 's/^/    /'
	cat <<'EOF'
  tasks:
    - name: use the secrets
      shell:
        cmd: printf '%s|%s|%s|%s|%s\n' {{ app_secret }} {{ host_secret }} {{ db_password }} {{ api_token }} {{ play_secret }} > /tmp/vault-e2e-proof; cat /tmp/vault-e2e-proof
    - name: a failure that prints a secret
      shell:
        cmd: echo "leaked {{ db_password }}" >&2; exit 3
      ignore_errors: true
EOF
} >"$W/play.yml"
want="$FILE_SECRET|$HOST_SECRET|$INLINE_DEFAULT|$INLINE_PROD|$PLAY_SECRET"

# play ARGS...: tcptune play against the vaulted inventory
play() {
	e2e_run 120 "$TCPTUNE" play "$W/play.yml" -i inv \
	    --known-hosts "$LAB_KNOWN_HOSTS" --no-color "$@"
}

# no_secret DESC: the last run's stdout and stderr hold no secret
no_secret() {
	local s
	for s in "${SECRETS[@]}"; do
		if grep -qF -- "$s" "$E2E_TMP/out" "$E2E_TMP/err"; then
			e2e_fail "$1: '$s' appears in the output"
			return
		fi
	done
	e2e_ok "$1: no decrypted secret in the output"
}

lab "$H" rm -f /tmp/vault-e2e-proof
play -vv --vault-password-file "$DEF" --vault-id "prod@$PROD"
assert_rc "the play runs (text, -vv)" 0
assert_eq "the host got every decrypted secret" "$want" \
    "$(lab "$H" cat /tmp/vault-e2e-proof)"
no_secret "text output with -vv"
assert_match "the failed task's message shows <vaulted>" \
    "fatal: \[$H\]: FAILED! => exit 3 \(expected 0\): leaked '<vaulted>'" \
    "$RUN_OUT"

play --format json --vault-password-file "$DEF" --vault-id "prod@$PROD"
assert_rc "the play runs (JSON)" 0
assert_eq "JSON stdout of the command is redacted" \
    "<vaulted>|<vaulted>|<vaulted>|<vaulted>|<vaulted>" \
    "$(jq_out --arg h "$H" '.plays[0].results[$h][0].data.stdout' | tr -d '\n')"
no_secret "JSON output"

play --vault-password-file "$DEF"
assert_rc "the play with one id of two exits 1" 1
assert_match "names the file it cannot decrypt" \
    "host_vars/$H\.yml: vault: HMAC check failed" "$RUN_ERR"

# Inline values only (no vaulted file): the host and variable are named.
rm -f inv/group_vars/lab.yml "inv/host_vars/$H.yml"
play
assert_rc "an inline value without a password exits 1" 1
assert_match "names the host and the variable" \
    "^tcptune: error: host '$H': variable '(api_token|db_password)': vault-encrypted; give --vault-password-file or --ask-vault-pass$" \
    "$RUN_ERR"
play --vault-password-file "$W/wrong.pass" --vault-id "prod@$W/wrong.pass"
assert_rc "an inline value with a wrong password exits 1" 1
assert_match "names the host and variable: HMAC check failed" \
    "host '$H': variable '[a-z_]+': vault: HMAC check failed: wrong vault password\?" \
    "$RUN_ERR"
no_secret "the failures"

e2e_finish
