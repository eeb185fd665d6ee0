# End-to-end tests of tuning (issue 4): plan changes nothing, apply sets the
# live per-namespace values and is idempotent, overriding sysctl.d files and
# refused/read-only keys are reported, rollback restores, a connection killed
# mid-apply never leaves a partial drop-in, serial/max_fail_percentage stop a
# rollout. Each script brings up a lab of its own (DIR /tmp/tcptune-e2e-t4N,
# prefix t4N, 198.18.4N.0/24, N = 0..6), so they may run in parallel. They
# need root and skip (77) otherwise. Helpers: tests/e2e/tune-lib.sh.
foreach(t plan apply override keys rollback kill serial route hostile restore-fail
    round-trips)
  add_test(NAME e2e/tune-${t}
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/tune-${t}.sh
            $<TARGET_FILE:tcptune>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e/tune-${t} PROPERTIES
    LABELS "e2e;tune" SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

# ansible.posix.sysctl (issue 10): a playbook written for Ansible applied by
# ansible-playbook to one lab host and by tcptune to another gives the same
# files and live values; check, diff, rerun. Lab asy, 198.18.111.0/24.
add_test(NAME e2e/ansible-sysctl
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/ansible-sysctl.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/ansible-sysctl PROPERTIES
  LABELS "e2e;tune" SKIP_RETURN_CODE 77 TIMEOUT 300)

# community.general.modprobe (issue 23) over the lab's sshd, against
# Ansible's own module on the same host: this machine's kernel has no
# loadable modules, so both fail the same way and change no file (check mode
# too); lint refuses a bad name and quoted params. Lab hmd, 198.18.70.0/24.
add_test(NAME e2e/modprobe-lab
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/modprobe-lab.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/modprobe-lab PROPERTIES
  LABELS "e2e;tune" SKIP_RETURN_CODE 77 TIMEOUT 300)

# The playbook language (issue 22): roles, loops, handlers, blocks and
# imports run by ansible-playbook and by tcptune on the same two lab hosts:
# the same tasks, statuses, loop items and outputs. Lab hlg, 198.18.60.0/24.
add_test(NAME e2e/lang-ansible
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/lang-ansible.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/lang-ansible PROPERTIES
  LABELS "e2e;lang" SKIP_RETURN_CODE 77 TIMEOUT 300)

# A sysctl role (issue 22) applied by ansible-playbook and tcptune: the
# same drop-in, live values and recap; reruns change nothing; --check
# --diff changes nothing. Lab hlg, 198.18.60.0/24 (as e2e/lang-ansible).
add_test(NAME e2e/lang-sysctl-role
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/lang-sysctl-role.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/lang-sysctl-role PROPERTIES
  LABELS "e2e;lang" SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_LOCK lab-hlg)
set_tests_properties(e2e/lang-ansible PROPERTIES RESOURCE_LOCK lab-hlg)

# The language-level actions (debug, assert, fail, set_fact, include_vars,
# meta) and include_role (issue 22) run by ansible-playbook and by tcptune
# on the same two lab hosts: the same printed lines, recap counts and exit
# status. Lab lg1, 198.18.163.0/24.
add_test(NAME e2e/lang-actions
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/lang-actions.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/lang-actions PROPERTIES
  LABELS "e2e;lang" SKIP_RETURN_CODE 77 TIMEOUT 400)

# The connection keywords (issue 22): become and become_user on plays,
# blocks, imports, roles and tasks, against ansible-playbook 2.14 on the
# same two lab hosts. Lab l3a, 198.19.110.0/24.
add_test(NAME e2e/lang-connection
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/lang-connection.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/lang-connection PROPERTIES
  LABELS "e2e;lang" SKIP_RETURN_CODE 77 TIMEOUT 120)

# Where tcptune and ansible-playbook 2.14 used to differ on the same input
# (issue 22: command's argv, -e ansible_host/port/user, variables that
# reference variables, gather_subset, ansible_connection: local), compared
# on one lab host: the same printed lines, recap counts and exit status
# (about 8 s). Lab l4a, 198.19.140.0/24.
add_test(NAME e2e/lang-compat
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/lang-compat.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/lang-compat PROPERTIES
  LABELS "e2e;lang" SKIP_RETURN_CODE 77 TIMEOUT 120)

# Every with_* loop, loop_control, until, allow_duplicates, and handlers
# with a flush (issue 22), against ansible-playbook 2.14 on the same two
# lab hosts. Lab l5a, 198.19.160.0/24.
add_test(NAME e2e/lang-loops
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/lang-loops.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/lang-loops PROPERTIES
  LABELS "e2e;lang" SKIP_RETURN_CODE 77 TIMEOUT 120)
