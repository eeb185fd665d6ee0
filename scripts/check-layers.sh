#!/bin/sh
# check-layers.sh - the include graph of lib/ and modules/ follows its layers.
#
# lib/'s folders are layers, lowest first in LAYERS below (what each one is
# for: docs/architecture.md), and the top-level modules/ is the last of
# them. A file includes headers of its own layer or of a layer below, always
# as "layer/name.h"; cmd/ sits on top and may include any layer. Fails, naming file:line, on an upward include or a bare one,
# and on any cycle between files (foo.c and foo.h count as one file).
#
# Usage: scripts/check-layers.sh [SOURCE_DIR]
set -eu

LAYERS="base config vault yaml template net inventory remote tune playbook run report modules"

cd "${1:-$(dirname "$0")/..}"

rank() {
	i=0
	for l in $LAYERS; do
		[ "$l" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo -1
}

bad=0
edges=$(mktemp)
trap 'rm -f "$edges" "$edges.bad"' EXIT

for dir in lib/*/; do
	d=$(basename "$dir")
	[ "$(rank "$d")" -ge 0 ] || {
		echo "lib/$d/: not a layer (add it to LAYERS in $0 and to docs/architecture.md)"
		bad=1
	}
done

for f in lib/*/*.c lib/*/*.h modules/*.c modules/*.h cmd/*/*.c cmd/*/*.h; do
	layer=${f#lib/}
	layer=${layer%%/*}
	case $f in
	cmd/*) mine=99 ;;
	*) mine=$(rank "$layer") ;;
	esac
	unit=${f%.*}
	# "#include "x/y.h"" lines, with their numbers.
	grep -n '^#[[:space:]]*include[[:space:]]*"' "$f" |
	    sed 's/^\([0-9]*\):#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1 \2/' |
	while read -r line inc; do
		case $inc in
		*/*)
			l=${inc%%/*}
			r=$(rank "$l")
			if [ "$r" -lt 0 ]; then
				echo "$f:$line: includes \"$inc\": no layer '$l'"
				echo bad >>"$edges.bad"
			elif [ "$r" -gt "$mine" ]; then
				echo "$f:$line: upward include: $layer includes \"$inc\" ($l is above $layer)"
				echo bad >>"$edges.bad"
			fi
			dep="lib/${inc%.h}"
			case $inc in modules/*) dep=${inc%.h} ;; esac
			if [ "$dep" != "$unit" ]; then
				echo "$unit $dep" >>"$edges"
			fi
			;;
		*)
			case $f in
			cmd/*) ;;	# cmd/tcptune's own headers
			*)
				echo "$f:$line: includes \"$inc\": write it as \"layer/$inc\""
				echo bad >>"$edges.bad"
				;;
			esac
			;;
		esac
	done
done
if [ -e "$edges.bad" ]; then
	bad=1
fi

# Cycles between files: tsort names every loop it finds on stderr.
loops=$(tsort "$edges" 2>&1 >/dev/null | grep -v 'input contains a loop:$' |
    sed 's/^tsort: //' || true)
if [ -n "$loops" ]; then
	echo "include cycles between files (each loop listed by tsort):"
	echo "$loops" | sed 's/^/  /'
	bad=1
fi

if [ "$bad" = 0 ]; then
	echo "layers: $(find lib modules -mindepth 1 -name '*.[ch]' | wc -l) files in" \
	    "$(($(find lib -mindepth 1 -maxdepth 1 -type d | wc -l) + 1)) layers," \
	    "no upward include, no cycle"
fi
exit "$bad"
