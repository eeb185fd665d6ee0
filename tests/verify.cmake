# iperf3_verify end to end over the lab's WAN emulator (52 ms each way,
# 100 Mbit/s, one-BDP queue): the stock -> tuned before/after of a single
# flow (verify-wan, ~60 s), and the gate rolling a regression back and
# judging a one-direction pair's min_gain at both ends (verify-gate,
# ~65 s), and what limited each flow and which end's key would change it
# (verify-diag, issue 24: receive_window, send_buffer, congestion at 1%
# loss and link_rate, each from --format json and the table's "limited
# by" column, and the single-vs-many reading, ~150 s; the pure parts are
# unit/test-diag), and the path checks with the keys they plan
# (verify-path, issue 24: loss, path MTU and a blackhole, drop counters;
# tcp_mtu_probing from the blackhole, ~70 s; the pure parts are
# unit/test-pathcheck). Each uses its
# own lab (prefix tvw / tvg / tvd / dg1). They
# measure throughput, so they run alone (RUN_SERIAL): wanem needs about a
# third of a core per 100 Mbit/s flow. Need root; exit 77 (skipped)
# otherwise. The unit test of the parser, table and gate is
# unit/test-iperf (tests/unit/test-iperf.c).
if(TARGET wanem)
  foreach(t wan gate diag path)
    add_test(NAME e2e/verify-${t}
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/verify-${t}.sh
              $<TARGET_FILE:tcptune> $<TARGET_FILE:wanem>
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(e2e/verify-${t} PROPERTIES
      LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 240)
  endforeach()
endif()
# Every pair of a 4-host WAN lab in rounds, and the latency guard
# (verify-rounds, ~40 s, prefix tvr).
if(TARGET wanem)
  add_test(NAME e2e/verify-rounds
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/verify-rounds.sh
            $<TARGET_FILE:tcptune> $<TARGET_FILE:wanem>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e/verify-rounds PROPERTIES
    LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 150)
endif()
# The latency guard's values are refused before any host is contacted (the
# inventory's hosts do not exist), with the key and the value.
foreach(case
    "max_rtt_increase=50s|module 'iperf3_verify': max_rtt_increase: expected milliseconds (50, '50ms') or a ratio ('1.5x'), got '50s'"
    "max_rtt_increase=0.5x|module 'iperf3_verify': max_rtt_increase: a ratio must be at least 1x, got '0.5x'"
    "max_retransmit_rate=2|value 2.0 for 'max_retransmit_rate' is out of range 0.0 to 1.0")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 word)
  list(GET parts 1 msg)
  string(REGEX REPLACE "[=].*" "" key "${word}")
  string(REGEX REPLACE ".*[=]" "" value "${word}")
  add_test(NAME cli/verify-refuses-${key}-${value}
    COMMAND sh -c "out=$($0 verify -i nowhere.invalid, \"$1\" 2>&1); rc=$?
                   [ $rc -eq 1 ] || { echo \"exit $rc, want 1\"; exit 1; }
                   [ \"$out\" = \"tcptune: error: <command line>:1:1: $2\" ] ||
                       { echo \"got: $out\"; exit 1; }"
            $<TARGET_FILE:tcptune> "${word}" "${msg}")
  set_tests_properties(cli/verify-refuses-${key}-${value} PROPERTIES
    LABELS unit)
endforeach()

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

