# The shell scripts run on the hosts (lib/remote/apply.sh, lib/remote/probe.sh,
# lib/remote/modprobe.sh, lib/remote/file.sh, lib/remote/systemd.sh,
# lib/remote/command.sh (a guard on a command line, not a program),
# lib/remote/apt.sh,
# called as lib/remote/prelude.sh says): under dash
# in a temporary root (TCPTUNE_TEST_ROOT: a fake /proc/sys and /etc, stubs of
# modprobe, tc, ip and ping), a failed step leaves the managed files
# byte-identical and is reported as failed (tests/shell/). They run as any
# user; as root they also fill a small tmpfs and use read-only bind mounts,
# and never touch this machine's /etc or /proc/sys. Skip (77) without dash.
foreach(t apply-failures apply-conf apply-qdisc apply-confirm probe-ping modprobe file systemd command apt as-root)
  add_test(NAME shell/${t}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/shell/${t}.sh)
  set_tests_properties(shell/${t} PROPERTIES
    LABELS shell SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

# shellcheck: the host scripts (every lib/remote/*.sh) as POSIX sh, and these
# tests and scripts/ (bash). Skip (77)
# where shellcheck is not installed.
add_test(NAME lint/shellcheck
  COMMAND sh -c "command -v shellcheck >/dev/null || exit 77
                 shellcheck -s sh lib/remote/*.sh &&
                 shellcheck -x tests/shell/*.sh scripts/*.sh"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(lint/shellcheck PROPERTIES
  LABELS lint SKIP_RETURN_CODE 77)
