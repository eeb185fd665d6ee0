# Real-kernel tier: User-mode Linux guests (tests/guests/guests.sh), each a
# separate Debian 12 kernel with systemd. Needs root (skips, 77, otherwise)
# and user-mode-linux + mmdebstrap: where UML cannot run, the test FAILS with
# the reason; it is never skipped for that. A cold image build takes 2-3 min
# (cached under /var/tmp/tcptune-guests), each guest ~300 MiB of memory.
add_test(NAME e2e/guests-smoke
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/guests-smoke.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/guests-smoke PROPERTIES
  LABELS guests RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 900)

# The tuning path on real kernels (issue 13): plan changes nothing, play
# replaces the live qdisc with fq and loads tcp_bbr, the tuning survives a
# reboot (drift 0), rollback leaves the guests as before. ~3-4 min.
add_test(NAME e2e/guests-tune
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/guests-tune.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/guests-tune PROPERTIES
  LABELS guests RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 900)

# Verify on the guest WAN (issue 13): 150 Mbit/s x 75 ms each way, a BDP the
# stock buffers cannot fill; wan-tuning.yml's own single-flow verify must
# show stock well under tuned and tuned >= 85% of the rate. ~3 min.
add_test(NAME e2e/guests-verify
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/guests-verify.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/guests-verify PROPERTIES
  LABELS guests RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 900)

# Drift on a real systemd timer (issue 13): contrib/systemd's units, as
# shipped (hardening included), in one guest checking another; the timer
# (a drop-in makes it fire every 15 s) writes the Prometheus textfile: in
# sync, then drift after a sysctl -w (exit 8 is success), then an
# unreachable host (exit 12 fails the unit). ~2 min.
add_test(NAME e2e/guests-timer
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/guests-timer.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/guests-timer PROPERTIES
  LABELS guests RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 900)
