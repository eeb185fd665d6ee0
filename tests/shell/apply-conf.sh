#!/bin/bash
# apply-conf.sh - apply.sh's conf-read and conf-write (the two steps of an
# ansible.posix.sysctl task) under dash in a fake root with a sysctl stub:
# what conf-read shows; conf-write refuses a file changed since it was read
# and runs nothing; a refusal sysctl exits 0 on stops the task before the
# file; a write keeps the file's mode, backs it up first, then reloads with
# -p (and -e); a new file gets 0644.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sh_init apply-conf

# run_conf MODE [NAME=VALUE...]: apply.sh with the conf-* inputs.
# conf-write's INPUT is standard input.
run_conf() {
	local mode=$1 input=
	shift
	[[ $mode == conf-write ]] && input=$(stdin_value; printf .)
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call apply "$APPLY_SH" \
	    MODE="$mode" FILE="$FILE" STATE="$STATE" QDISC= DEV= TXQ=0 \
	    MODULES= ROUTE= PROBE= PERSIST= TO= KEY=tcptune.test.a EXPECT= \
	    SETKV= WRITE= RELOAD= IGNORE= INPUT="${input%.}" "$@")
}

new_root read
FILE=$R/etc/sysctl.conf
stub sysctl 'echo 7; exit 0'
run_conf conf-read
assert_block "conf-read: no file" $'@old\nexists=0\n@conf\nsum=absent\n@live\nrc=0\nvalue=7'
assert_eq "conf-read: sysctl -e -n KEY" "sysctl -e -n tcptune.test.a" "$(cat "$R/calls")"
printf 'a = 1\nb=2' >"$FILE"
run_conf conf-read
sum=$(cksum <"$FILE")
assert_block "conf-read: the file and its sum" $'@old\nexists=1\nno_newline=1\n|a = 1\n|b=2\n@conf\nsum='"$sum"

new_root changed
FILE=$R/etc/sysctl.conf
printf 'a=1\n' >"$FILE"
stub sysctl 'exit 0'
keep "$FILE"
run_conf conf-write EXPECT="123 4" SETKV=tcptune.test.a=2 WRITE=1 RELOAD=1 <<<"a=2"
assert_line "a file changed since it was read is refused" \
    "error=$FILE changed since it was read (cksum 123 4, now $(cksum <"$FILE")); nothing was done"
same "$FILE" "the changed file"
assert_eq "nothing but the read-back ran" "sysctl -e -n tcptune.test.a" "$(cat "$R/calls")"

new_root quiet
FILE=$R/etc/sysctl.conf
printf 'a=1\n' >"$FILE"
stub sysctl 'case $* in *-w*) echo "sysctl: setting key \"tcptune.test.a\": Invalid argument" >&2 ;; esac; exit 0'
keep "$FILE"
run_conf conf-write EXPECT="$(cksum <"$FILE")" SETKV=tcptune.test.a=x WRITE=1 RELOAD=1 <<<"a=x"
assert_block "a refusal sysctl exits 0 on fails the set" $'@set\nrc=0\nout=sysctl: setting key "tcptune.test.a": Invalid argument\nfailed=1\n@live'
same "$FILE" "the file after a refused set"
assert_no_line "no write after a refused set" "@write"
assert_no_line "no reload after a refused set" "@reload"

new_root write
FILE=$R/etc/sysctl.conf
B=$STATE/backup/$(printf '%s' "$FILE" | tr / _)
printf 'a = 1\n' >"$FILE"
chmod 0600 "$FILE"
stub sysctl 'exit 0'
run_conf conf-write EXPECT="$(cksum <"$FILE")" WRITE=1 RELOAD=1 IGNORE=1 <<<"a=2"
assert_line "written" "status=written"
assert_file "the new content" "$FILE" "a=2"
assert_eq "the file's mode kept" 600 "$(stat -c %a "$FILE")"
assert_file "the first backup holds the old file" "$B/orig" "a = 1"
assert_eq "then sysctl -e -p FILE, then the read-back" \
    "sysctl -e -p $FILE
sysctl -e -n tcptune.test.a" "$(cat "$R/calls")"
assert_eq "no temp file left" "" "$(find "$R/etc" -name '.sysctl.conf.*')"

new_root create
FILE=$R/etc/sysctl.d/50-new.conf
B=$STATE/backup/$(printf '%s' "$FILE" | tr / _)
stub sysctl 'exit 0'
run_conf conf-write EXPECT=absent WRITE=1 <<<"a=3"
assert_file "a new file" "$FILE" "a=3"
assert_eq "a new file's mode" 644 "$(stat -c %a "$FILE")"
assert_eq "a new file is recorded as absent before" yes \
    "$([ -e "$B/absent" ] && echo yes)"
FILE=$R/etc/nodir/x.conf
run_conf conf-write EXPECT=absent WRITE=1 <<<"a=3"
assert_line "no directory: the write fails, as Ansible's mkstemp does" \
    "error=cannot create a temp file in $R/etc/nodir: No such file or directory"
sh_finish
