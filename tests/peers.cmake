# Sizing for many peers on the multi-region lab (tests/lab/regions.sh: ten
# hosts in four regions joined by wanem): each host's ceiling from its
# widest path, checked against the emulator's configured delays; an
# unreachable peer reported and fallen back from; the probe's bound with 49
# peers. Probes and plans only (no iperf3): ~30 s. Needs root; exit 77
# (skipped) otherwise. The pure parts are in unit/test-sizing.

# Issue 12's "done when" on the same ten-host lab (prefix tfr): one play
# measures the 37 cross-region pairs in rounds, sizes each host by its
# farthest peer, measures again with --report; the ceilings against the
# configured matrix, every cross-region cell of the path matrix at 80% of
# its emulated rate after, the rounds against the most pairs of a host, the
# report in headless Chromium (e2e-fleet-regions.png kept in the build dir).
# ~2 min (measured 117 s, of which the play 112 s).
if(TARGET wanem)
  foreach(t peers fleet)
    add_test(NAME e2e/${t}-regions
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/${t}-regions.sh
              $<TARGET_FILE:tcptune> $<TARGET_FILE:wanem>
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(e2e/${t}-regions PROPERTIES
      LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()
