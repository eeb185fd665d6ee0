# Real-kernel tier: User-mode Linux guests (tests/guests/guests.sh), each a
# separate Debian 12 kernel with systemd. Needs root (skips, 77, otherwise)
# and user-mode-linux + mmdebstrap: where UML cannot run, the test FAILS with
# the reason; it is never skipped for that. A cold image build takes 2-3 min
# (cached under /var/tmp/tcptune-guests), each guest ~300 MiB of memory.
# What each checks is in tests/guests/README.md:
#   smoke   probe facts against the guests' own commands, WAN, reboot (~2 min)
#   tune    plan changes nothing, play sets fq live and loads tcp_bbr, the
#           tuning survives a reboot, rollback; the mq path (~4 min)
#   verify  wan-tuning.yml's own single-flow verify on a 150 Mbit/s x 75 ms
#           guest WAN: tuned >= 85% of the rate (~3 min; needs a quiet machine)
#   timer   contrib/systemd's units as shipped: the timer's textfile in sync,
#           drift after a sysctl -w, an unreachable host (~2 min)
#   confirm play --confirm-timeout: a harmful sysctl reverted by the host
#           itself within the timeout + 10 s, everything as before; a qdisc
#           change confirmed, no timer left; --check schedules nothing
#           (~4 min)
foreach(t smoke tune verify timer confirm)
  add_test(NAME e2e/guests-${t}
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/guests-${t}.sh
            $<TARGET_FILE:tcptune>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e/guests-${t} PROPERTIES
    LABELS guests RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 900)
  if(t STREQUAL confirm)
    # Three plays, one of them waiting out a revert: more on a loaded machine.
    set_tests_properties(e2e/guests-${t} PROPERTIES TIMEOUT 2400)
  endif()
endforeach()
