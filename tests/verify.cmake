# iperf3_verify end to end over the lab's WAN emulator (52 ms each way,
# 100 Mbit/s, one-BDP queue): the stock -> tuned before/after of a single
# flow (verify-wan, ~60 s) and the gate rolling a regression back
# (verify-gate, ~30 s). Each uses its own lab (prefix tvw / tvg). They
# measure throughput, so they run alone (RUN_SERIAL): wanem needs about a
# third of a core per 100 Mbit/s flow. Need root; exit 77 (skipped)
# otherwise. The unit test of the parser, table and gate is
# unit/test-iperf (tests/unit/test-iperf.c).
if(TARGET wanem)
  foreach(t wan gate)
    add_test(NAME e2e/verify-${t}
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/verify-${t}.sh
              $<TARGET_FILE:tcptune> $<TARGET_FILE:wanem>
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(e2e/verify-${t} PROPERTIES
      LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 150)
  endforeach()
endif()

# The path matrix on a two-region, four-host lab (prefix tvm): its table,
# JSON, Prometheus series, and the HTML report rendered in headless
# Chromium (one SVG cell per group pair; the screenshot is kept as
# e2e-verify-matrix.png in the build dir). ~25 s. The pure parts are
# unit/test-matrix.
if(TARGET wanem)
  add_test(NAME e2e/verify-matrix
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/verify-matrix.sh
            $<TARGET_FILE:tcptune> $<TARGET_FILE:wanem>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e/verify-matrix PROPERTIES
    LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 150)
endif()
