# tcptune systemd: the host's part of a systemd/service task
# (modules/mod-systemd.c). `read` (after `systemctl daemon-reload` when
# RELOAD says so, as the module reloads before it looks) shows the unit's
# states and whether it is enabled; the decision is made on the
# controller (lib/tune/svcplan.c); `write`, sent only when something is to
# be done and never in check mode, runs what it says, in the module's
# order: enable or disable, then start, stop, restart or reload.
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   MODE     read | write
#   UNIT     the unit ([A-Za-z0-9_.:@-]; the controller refuses any other)
#   RELOAD   read: 1 to run `systemctl daemon-reload` first
#   ENABLE   write: enable | disable | ""
#   ACTION   write: start | stop | restart | reload | ""
#
# Under the tests (TCPTUNE_TEST_ROOT), ROOT/bin holds a systemctl stub.
#
# Output: "tcptune-systemd 1", then sections of "key=value" lines (escaped
# as the prelude's kv does): @reload (rc, err), @show (LoadState,
# ActiveState, SubState, UnitFileState, LoadError as systemctl show prints
# them), @enabled (rc, out of `systemctl is-enabled UNIT -l`), @enable and
# @action (rc, out, err), and "@done" at the end.

do_read() {
	if [ "$RELOAD" = 1 ]; then
		run_shown reload systemctl daemon-reload || return
	fi
	printf '@show\n'
	if ! rd_s=$(systemctl show "$UNIT" --no-pager \
	    -p LoadState -p ActiveState -p SubState -p UnitFileState \
	    -p LoadError 2>&1); then
		kv error "$rd_s"
		return
	fi
	printf '%s\n' "$rd_s" | while IFS= read -r rd_l; do
		case $rd_l in
		*=*) kv "${rd_l%%=*}" "${rd_l#*=}" ;;
		esac
	done
	run_shown enabled systemctl is-enabled "$UNIT" -l
}

do_write() {
	if [ -n "$ENABLE" ]; then
		run_shown enable systemctl "$ENABLE" "$UNIT" || return
	fi
	if [ -n "$ACTION" ]; then
		run_shown action systemctl "$ACTION" "$UNIT"
	fi
}

printf 'tcptune-systemd 1\n'
# shellcheck disable=SC2153 # MODE is an input of the header
case $MODE in
read) do_read ;;
write) do_write ;;
*) printf '@show\n'; kv error "unknown mode $MODE" ;;
esac
printf '@done\n'
