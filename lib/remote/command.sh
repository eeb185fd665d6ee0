# tcptune command: the guard of a command or shell task with chdir,
# creates or removes (modules/mod-command.c). It is not a remote program
# of the prelude's kind: the command's standard input is the task's stdin,
# not a program, so the guard goes on the command's own line, before the
# command, and runs in the same shell (lib/remote/command.c builds the
# line: these inputs, this text, then the command). It decides as
# Ansible's command module does before it runs anything: into chdir
# first, then creates (a path matching the glob: not run), then removes
# (no path matching: not run), globs relative to chdir and a leading ~ as
# the remote user's home.
#
# Inputs, assigned before it (each value quoted by lib/base/shquote.c):
#   TCPTUNE_CHDIR    the directory to run in ("": where the login starts)
#   TCPTUNE_CREATES  a glob ("": none)
#   TCPTUNE_REMOVES  a glob ("": none)
#
# Output, first on standard output: "tcptune-command 1", then one of
#   "@run"                     the command follows; all after it is its own
#   "@skip", why=creates|removes, "@done"   not run (exit 0)
#   "@chdir", errno=N, "@done"              could not enter chdir (exit 1)

# Whether a path matches glob $1 (as Python's glob.glob: a pattern without
# magic matches itself if it exists, a dangling link included).
tcptune_matches() {
	case $1 in
	\~|\~/*) set -- "$HOME${1#\~}" ;;
	esac
	tm_ifs=$IFS
	IFS=
	# shellcheck disable=SC2086 # expanded as a glob, never split
	set -- $1
	IFS=$tm_ifs
	for tm_p do
		if [ -e "$tm_p" ] || [ -L "$tm_p" ]; then
			return 0
		fi
	done
	return 1
}

printf 'tcptune-command 1\n'
case $TCPTUNE_CHDIR in
\~|\~/*) TCPTUNE_CHDIR=$HOME${TCPTUNE_CHDIR#\~} ;;
-*) TCPTUNE_CHDIR=./$TCPTUNE_CHDIR ;;
esac
if [ -n "$TCPTUNE_CHDIR" ] && ! cd "$TCPTUNE_CHDIR" 2>/dev/null; then
	# the errno os.chdir would have raised
	if [ ! -e "$TCPTUNE_CHDIR" ]; then
		tm_e=2
	elif [ ! -d "$TCPTUNE_CHDIR" ]; then
		tm_e=20
	else
		tm_e=13
	fi
	printf '@chdir\nerrno=%s\n@done\n' "$tm_e"
	exit 1
fi
if [ -n "$TCPTUNE_CREATES" ] && tcptune_matches "$TCPTUNE_CREATES"; then
	printf '@skip\nwhy=creates\n@done\n'
	exit 0
fi
if [ -n "$TCPTUNE_REMOVES" ] && ! tcptune_matches "$TCPTUNE_REMOVES"; then
	printf '@skip\nwhy=removes\n@done\n'
	exit 0
fi
printf '@run\n'
