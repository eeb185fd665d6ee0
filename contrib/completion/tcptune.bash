# bash completion for tcptune: commands, each command's options, option
# values (--format, --color, ...), module names, the KEY= words of size
# and verify, and the host and group names of the inventory given with -i
# earlier on the line (or the default one: $TCPTUNE_INVENTORY,
# ansible.cfg). Every word comes from the binary
# itself (`tcptune __complete ...`, cmd/tcptune/complete.c), so completion
# offers what the parser accepts; it contacts no host and runs no
# inventory script. Installed as share/bash-completion/completions/tcptune.

# The -i/--inventory sources on the line before the cursor, as -i SRC
# arguments for `tcptune __complete hosts`, in _tcptune_inv.
_tcptune_inventories()
{
	local i w src
	_tcptune_inv=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		src=
		case $w in
		-i | --inventory)
			src=${COMP_WORDS[i + 1]}
			# "--inventory=X": bash splits at '='
			if [[ $src == = ]]; then src=${COMP_WORDS[i + 2]}; fi
			;;
		-i?*) src=${w#-i} ;;
		esac
		if [[ -n $src && $src != = ]]; then
			_tcptune_inv+=(-i "${src/#\~/$HOME}")
		fi
	done
}

# COMPREPLY from a newline-separated word list, for the current word.
_tcptune_words()
{
	local IFS=$'\n'
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -W "$1" -- "$2"))
}

_tcptune_hosts()
{
	_tcptune_inventories
	_tcptune_words "$("$1" __complete hosts "${_tcptune_inv[@]}" 2>/dev/null)" "$2"
}

_tcptune_files()
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -f -- "$1"))
}

# KEY= words of $1 that start with $2, added to COMPREPLY; when they are
# all it offers, no space after the one taken (its value follows the '=').
_tcptune_params()
{
	local IFS=$'\n' w only=1
	for w in $(compgen -W "$1" -- "$2"); do
		COMPREPLY+=("$w")
	done
	for w in "${COMPREPLY[@]}"; do
		[[ $w == *= ]] || only=0
	done
	if ((only && ${#COMPREPLY[@]} > 0)); then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}

# What the lines of $2 (":file", ":hosts" or ":params", the last two
# followed by the command's KEY= words; ":text"; or plain words) offer for
# the current word $3; tcptune is $1.
_tcptune_offer()
{
	local first=${2%%$'\n'*} rest=
	[[ $2 == *$'\n'* ]] && rest=${2#*$'\n'}
	case $first in
	:file) _tcptune_files "$3" ;;
	:hosts) _tcptune_hosts "$1" "$3"; _tcptune_params "$rest" "$3" ;;
	:params) COMPREPLY=(); _tcptune_params "$rest" "$3" ;;
	:text | '') COMPREPLY=() ;;
	*) _tcptune_words "$2" "$3" ;;
	esac
}

_tcptune()
{
	local tt=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]} cmd value after_eq=1
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			_tcptune_words $'--help\n--version\n-h\n-V' "$cur"
		else
			_tcptune_words "$("$tt" __complete commands 2>/dev/null |
			    cut -f1)" "$cur"
		fi
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	# "--color=<Tab>" and "--color=al<Tab>": bash splits at '='
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	else
		after_eq=0
	fi
	# the value of a KEY=VALUE argument ("rtt_ms=<Tab>"): nothing to offer
	if ((after_eq)) && [[ $prev != -* ]]; then
		return 0
	fi
	# a host pattern's next part: "web:d<Tab>", "web:<Tab>" (':' splits)
	if [[ $prev == : || $cur == : ]]; then
		[[ $cur == : ]] && cur=
		_tcptune_hosts "$tt" "$cur"
		return 0
	fi
	if [[ $prev == -* ]]; then
		value=$("$tt" __complete value -- "$prev" 2>/dev/null)
		if [[ -n $value ]]; then
			_tcptune_offer "$tt" "$value" "$cur"
			return 0
		fi
	fi
	if [[ $cur == -* ]]; then
		_tcptune_words "$("$tt" __complete options "$cmd" 2>/dev/null)" \
		    "$cur"
		return 0
	fi
	_tcptune_offer "$tt" "$("$tt" __complete args "$cmd" 2>/dev/null)" \
	    "$cur"
	return 0
}
complete -F _tcptune tcptune
