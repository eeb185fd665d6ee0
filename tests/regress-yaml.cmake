# The YAML, playbook and expression reproducers of the fuzzing run, through
# the built tcptune under timeout and a memory limit (tests/e2e/regress-yaml.sh).
add_test(NAME regress/yaml
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/regress-yaml.sh
          $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR})
set_tests_properties(regress/yaml PROPERTIES LABELS regress TIMEOUT 600)
