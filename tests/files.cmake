# The file modules (issue 23): template, copy, lineinfile, file and stat by
# tcptune and by ansible-playbook on two lab hosts from the same playbook
# (tests/data/files/): the same statuses and files, --check changing
# nothing, reruns. Lab md1, 198.18.170.0/24.
add_test(NAME e2e/files-ansible
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/files-ansible.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/files-ansible PROPERTIES
  LABELS "e2e;files" SKIP_RETURN_CODE 77 TIMEOUT 600)

# command and shell (issue 23): creates, removes, chdir, argv, stdin,
# executable, by tcptune and by ansible-playbook on two lab hosts, every
# task's registered keys compared, --check and a run. Lab m3a,
# 198.19.120.0/24.
add_test(NAME e2e/command-ansible
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/command-ansible.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/command-ansible PROPERTIES
  LABELS "e2e;files" SKIP_RETURN_CODE 77 TIMEOUT 120)

# package/apt (issue 23) in --check by tcptune and by ansible-playbook on
# two lab hosts (the lab shares this machine's filesystem: nothing is
# installed). Lab m3b, 198.19.121.0/24.
add_test(NAME e2e/apt-ansible
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/apt-ansible.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/apt-ansible PROPERTIES
  LABELS "e2e;files" SKIP_RETURN_CODE 77 TIMEOUT 120)

# wait_for_connection and reboot (issue 23): compared with ansible-playbook
# (reboot in --check only); a run's reboot refused by the guard, as the lab
# hosts run on this machine's kernel. Lab m3c, 198.19.122.0/24.
add_test(NAME e2e/reboot-lab
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/reboot-lab.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/reboot-lab PROPERTIES
  LABELS "e2e;files" SKIP_RETURN_CODE 77 TIMEOUT 120)
