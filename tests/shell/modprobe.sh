#!/bin/bash
# modprobe.sh - lib/remote/modprobe.sh (the host's part of a
# community.general.modprobe task) under dash in a fake root: read shows
# loaded from /proc/modules ('-' as '_') or modules.builtin, the dry run
# only when something is to be done, every regular file of both
# directories (dot-files, links; a last line without a newline); write
# refuses a file changed since it was read and then runs nothing, stops on
# a failed modprobe before any file, loads then writes each file
# atomically (an existing file's mode kept, a new one 0644, a link written
# through, no temp file left), warns when a load leaves the module
# unloaded, and unloads with -r.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sh_init modprobe
MODPROBE_SH=$SH_SRC/lib/remote/modprobe.sh

# mp_root NAME: a fake root with the two directories, /proc/modules, a
# kernel release of 6.1.0-test and its modules.builtin; modprobe's stub
# "loads" a module by adding its /proc/modules line.
mp_root() {
	new_root "$1"
	mkdir -p "$R/etc/modules-load.d" "$R/etc/modprobe.d" "$R/proc" \
	    "$R/lib/modules/6.1.0-test"
	printf 'sch_fq 16384 0 - Live 0x0\nnf_conntrack 1 0 - Live 0x0\n' \
	    >"$R/proc/modules"
	printf 'kernel/net/ipv4/tcp_cubic.ko\n' \
	    >"$R/lib/modules/6.1.0-test/modules.builtin"
	stub uname 'echo 6.1.0-test'
	# shellcheck disable=SC2016 # for the stub
	stub modprobe 'case "$1" in -*) exit 0 ;; esac
		printf "%s 16384 0 - Live 0x0\n" "$(echo "$1" | tr - _)" >>"'"$R"'/proc/modules"'
	: >"$R/calls"
}

# run_mp MODE [NAME=VALUE...]: the script as tcptune calls it.
run_mp() {
	local mode=$1
	shift
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call modprobe "$MODPROBE_SH" \
	    MODE="$mode" NAME=tcp_bbr PARAMS= STATE=present ACTION= WRITES= \
	    "$@")
}

calls() {
	grep -v '^uname' "$R/calls"
}

mp_root read
run_mp read
assert_block "read: not loaded, the dry run of the load" \
    $'@module\nloaded=0\n@dry\nrc=0\nout=\nerr='
assert_eq "read: modprobe -n NAME" "modprobe -n tcp_bbr" "$(calls)"
: >"$R/calls"
run_mp read NAME=sch-fq
assert_block "read: '-' is '_' in /proc/modules" $'@module\nloaded=1'
assert_no_line "read: no dry run when loaded and present" "@dry"
run_mp read NAME=tcp_cubic STATE=absent
assert_block "read: built in is loaded; the dry run of the unload" \
    $'@module\nloaded=1\n@dry'
assert_eq "read: modprobe -n -r NAME" "modprobe -n -r tcp_cubic" "$(calls)"
: >"$R/calls"
run_mp read NAME=tcp_bbr STATE=absent
assert_no_line "read: no dry run when absent and not loaded" "@dry"
run_mp read PARAMS="'a=1' 'b=2'"
assert_eq "read: the params on the dry run, one word each" \
    "modprobe -n tcp_bbr a=1 b=2" "$(calls)"

mp_root files
printf 'tcp_bbr\n' >"$R/etc/modules-load.d/tcp_bbr.conf"
printf '# hidden\nx' >"$R/etc/modules-load.d/.hidden"
printf 'options tcp_bbr a=1\n' >"$R/etc/modprobe.d/tcp_bbr.conf"
mkdir "$R/etc/modprobe.d/sub"
printf 'sch_fq\n' >"$R/etc/modules"
ln -s ../modules "$R/etc/modules-load.d/modules.conf"
run_mp read NAME=sch_fq
assert_block "read: a file with its sum and lines" \
    $'@file\npath=/etc/modules-load.d/tcp_bbr.conf\nsum='"$(cksum <"$R/etc/modules-load.d/tcp_bbr.conf")"$'\n|tcp_bbr'
assert_block "read: a dot-file, its last line without a newline" \
    $'@file\npath=/etc/modules-load.d/.hidden\nsum='"$(cksum <"$R/etc/modules-load.d/.hidden")"$'\nno_newline=1\n|# hidden\n|x'
assert_block "read: a link to a file" \
    $'@file\npath=/etc/modules-load.d/modules.conf\nsum='"$(cksum <"$R/etc/modules")"$'\n|sch_fq'
assert_line "read: modprobe.d's files" "path=/etc/modprobe.d/tcp_bbr.conf"
assert_no_line "read: not a directory" "path=/etc/modprobe.d/sub"
assert_eq "read: the script ends" "@done" "$(tail -n 1 <<<"$OUT")"

mp_root changed
f=/etc/modules-load.d/tcp_bbr.conf
printf 'old\n' >"$R$f"
keep "$R$f"
run_mp write ACTION=load WRITES="$(sh_words "$f" "1 2" $'tcp_bbr\n')"
assert_line "write: a file changed since it was read is refused" \
    "error=$f changed since it was read (cksum 1 2, now $(cksum <"$R$f")); nothing was done"
same "$R$f" "the changed file"
assert_eq "write: nothing ran" "" "$(calls)"

mp_root refused
stub modprobe 'echo "modprobe: FATAL: Module tcp_bbr not found in directory /lib/modules/6.1.0-test" >&2; exit 1'
: >"$R/calls"
run_mp write ACTION=load WRITES="$(sh_words /etc/modules-load.d/tcp_bbr.conf absent $'tcp_bbr\n')"
assert_block "write: a failed modprobe, its status and message" \
    $'@load\nrc=1\nout=\nerr=modprobe: FATAL: Module tcp_bbr not found in directory /lib/modules/6.1.0-test'
assert_no_line "write: no file after a failed modprobe" "@write"
assert_eq "write: the file not created" absent \
    "$([ -e "$R/etc/modules-load.d/tcp_bbr.conf" ] && echo present || echo absent)"

mp_root load
f=/etc/modprobe.d/other.conf
printf 'options tcp_bbr a=1\n' >"$R$f"
chmod 0600 "$R$f"
printf 'sch_fq\n' >"$R/etc/modules"
ln -s ../modules "$R/etc/modules-load.d/modules.conf"
run_mp write ACTION=load PARAMS="'a=2'" WRITES="$(sh_words \
    /etc/modules-load.d/tcp_bbr.conf absent $'tcp_bbr\n' \
    "$f" "$(cksum <"$R$f")" $'#options tcp_bbr a=1\n' \
    /etc/modules-load.d/modules.conf "$(cksum <"$R/etc/modules")" $'sch_fq\ntcp_bbr\n')"
assert_eq "write: modprobe NAME PARAMS" "modprobe tcp_bbr a=2" "$(calls)"
assert_block "write: loaded after" $'@load\nrc=0\nout=\nerr=\n@after\nloaded=1\n@write'
assert_file "write: a new file" "$R/etc/modules-load.d/tcp_bbr.conf" "tcp_bbr"
assert_eq "write: a new file is 0644" 644 \
    "$(stat -c %a "$R/etc/modules-load.d/tcp_bbr.conf")"
assert_file "write: an existing file" "$R$f" "#options tcp_bbr a=1"
assert_eq "write: its mode kept" 600 "$(stat -c %a "$R$f")"
assert_eq "write: the link is still a link" ../modules \
    "$(readlink "$R/etc/modules-load.d/modules.conf")"
assert_file "write: through the link to its file" "$R/etc/modules" \
    $'sch_fq\ntcp_bbr'
assert_eq "write: three files written" 3 "$(grep -c '^status=written$' <<<"$OUT")"
assert_eq "write: no temp file left" "" "$(find "$R/etc" -name '.*.*.*')"

mp_root unloaded
stub modprobe 'exit 0'
run_mp write ACTION=load
assert_block "write: a load that leaves it unloaded is said" \
    $'@after\nloaded=0'
stub modprobe 'case "$*" in *--first-time*) echo "modprobe: ERROR: could not insert tcp_bbr: Module already in kernel" >&2; exit 1 ;; esac'
run_mp write ACTION=load
assert_line "write: with what modprobe -n --first-time says" \
    "warn=modprobe: ERROR: could not insert tcp_bbr: Module already in kernel"

mp_root unload
run_mp write ACTION=unload NAME=sch_fq
assert_eq "write: modprobe -r NAME" "modprobe -r sch_fq" "$(calls)"
assert_block "write: its status" $'@unload\nrc=0'

mp_root nodir
rm -rf "$R/etc/modprobe.d"
run_mp write WRITES="$(sh_words /etc/modprobe.d/tcp_bbr.conf absent $'options tcp_bbr a=1\n')"
assert_line "write: a directory that is not there fails the file" \
    "path=/etc/modprobe.d/tcp_bbr.conf"
assert_eq "write: with the reason" 1 "$(grep -c '^error=cannot create a temp file in .*/etc/modprobe.d: ' <<<"$OUT")"

sh_finish
