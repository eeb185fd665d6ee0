#!/usr/bin/env zsh
# cli-complete.zsh SOURCE_DIR WORD... - what contrib/completion/_tcptune
# offers for the last WORD of "tcptune WORD...", one word a line, sorted.
# The completion system's builtins are stood in for by functions that print
# what they are given (compadd filters by the prefix as zsh does; _files
# prints ":files"), so _tcptune's own logic runs as in a shell, with its
# calls to `tcptune __complete`. Called by cli-complete.sh.
emulate -L zsh
src=$1
shift
words=(tcptune "$@")
CURRENT=$#words
PREFIX=$words[CURRENT]
offer() { local w; for w in "$@"; do [[ $w == ${PREFIX}* ]] && print -r -- $w; done }
compadd() {
	local arr=0 a
	while (( $# )); do
		case $1 in
		(--) shift; break ;;
		(-a) arr=1 ;;
		(-[SPpIiJVXx]) shift ;;	# an option with an argument
		(-*) ;;
		(*) break ;;
		esac
		shift
	done
	for a in "$@"; do
		if (( arr )); then offer ${(P)a}; else offer $a; fi
	done
}
_describe() { offer ${${(P)4}%%:*} }
_files() { print -r -- :files }
_message() { : }
compset() {
	if [[ $2 == '*=' ]]; then PREFIX=${PREFIX#*=}; else PREFIX=${PREFIX##*[:,]}; fi
}
_call_program() { shift; "$@" }
{
	source $src/contrib/completion/_tcptune
} | LC_ALL=C sort
