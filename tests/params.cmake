# `tcptune size` binds its KEY=VALUE words through the tcp_buffers module's
# parameter table: a value the module refuses is refused here with the same
# message and exit 1, and a value it accepts means the same here
# (allow_decrease=yes is allow_decrease=true). No host, no network.
set(SIZE_BASE "bandwidth_mbit=500 rtt_ms=105 mem=1GiB")
foreach(case
    "ram_divisor=0|value 0 for 'ram_divisor' is out of range 1 to 65536"
    "ram_divisor=abc|expected int for 'ram_divisor', got string 'abc'"
    "allow_decrease=maybe|expected bool for 'allow_decrease', got string 'maybe'")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 word)
  list(GET parts 1 msg)
  string(REGEX REPLACE "[=].*" "" key "${word}")
  string(REGEX REPLACE ".*[=]" "" value "${word}")
  add_test(NAME cli/size-refuses-${key}-${value}
    COMMAND sh -c "out=$($0 size ${SIZE_BASE} \"$1\" 2>&1); rc=$?
                   [ $rc -eq 1 ] || { echo \"exit $rc, want 1\"; exit 1; }
                   [ \"$out\" = \"tcptune: error: size: $2\" ] ||
                       { echo \"got: $out\"; exit 1; }"
            $<TARGET_FILE:tcptune> "${word}" "${msg}")
  set_tests_properties(cli/size-refuses-${key}-${value} PROPERTIES
    LABELS unit)
endforeach()

add_test(NAME cli/size-allow_decrease-yes
  COMMAND sh -c "yes=$($0 size ${SIZE_BASE} tcp_rmem='4096 131072 99999999' allow_decrease=yes) &&
                 true=$($0 size ${SIZE_BASE} tcp_rmem='4096 131072 99999999' allow_decrease=true) &&
                 no=$($0 size ${SIZE_BASE} tcp_rmem='4096 131072 99999999') &&
                 [ \"$yes\" = \"$true\" ] && [ \"$yes\" != \"$no\" ]"
          $<TARGET_FILE:tcptune>)
set_tests_properties(cli/size-allow_decrease-yes PROPERTIES LABELS unit)
