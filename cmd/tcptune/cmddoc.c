/* Descriptions and examples of the commands (cmddoc.h). Examples use the
 * repository's own playbooks and inventories, so they can be tried from a
 * clone; fleet.yml stands for the user's inventory. */
#include "cmddoc.h"

#include <string.h>

#include "cmd.h"

static const struct cmd_doc cmd_docs[] = {
	{ .name = "inventory", .args = ARGS_HOSTS,
	  .description = "Show the inventory as ansible-inventory shows it: "
	  "--list prints every group and host with its variables as JSON, "
	  "--host one host's merged variables, --graph the group tree. "
	  "Reads the inventory only; contacts no host.",
	  .examples = {
	    { "tcptune inventory -i inventory-examples/fleet.yml --graph",
	      "the group tree" },
	    { "tcptune inventory -i inventory-examples/fleet.yml --list "
	      "--limit 'ovh:&web'", "the web hosts at OVH, as JSON" },
	    { "tcptune inventory -i inventory-examples/fleet.ini --host "
	      "bhs-web01.example.net", "one host's variables" },
	  } },
	{ .name = "lint", .args = ARGS_FILES,
	  .description = "Check playbooks and inventories offline: YAML, "
	  "module names and parameters, templates, patterns and the values "
	  "that would reach a host. Every error is listed with its "
	  "file:line:col; exit 1 when there is one. Contacts no host.",
	  .examples = {
	    { "tcptune lint playbooks/wan-tuning.yml", "one playbook" },
	    { "tcptune lint -i inventory-examples/fleet.yml "
	      "playbooks/*.yml", "an inventory and every playbook" },
	  } },
	{ .name = "play", .args = ARGS_FILES,
	  .description = "Run a playbook over the inventory: probe each "
	  "host, plan its tuning, apply one sysctl drop-in atomically with "
	  "a backup and read-back, and measure with iperf3 where the "
	  "playbook asks. Results print as each host finishes. With "
	  "--check nothing changes on any host.",
	  .examples = {
	    { "tcptune play playbooks/wan-tuning.yml -i fleet.yml -l canary",
	      "tune the canary group" },
	    { "tcptune play playbooks/wan-tuning.yml -i fleet.yml -C -D",
	      "what would change, with diffs" },
	    { "tcptune play playbooks/wan-tuning.yml -i fleet.yml "
	      "--list-tasks", "the tasks it would run; contacts nothing" },
	  } },
	{ .name = "plan", .args = ARGS_FILES,
	  .description = "What play would change: play --check --diff. "
	  "Contacts the hosts to read their state, changes nothing. With "
	  "--detailed-exitcode, exit 8 means changes are pending.",
	  .examples = {
	    { "tcptune plan playbooks/wan-tuning.yml -i fleet.yml",
	      "the plan for every host" },
	    { "tcptune plan playbooks/wan-tuning.yml -i fleet.yml "
	      "--detailed-exitcode", "exit 8: changes pending" },
	  } },
	{ .name = "drift", .args = ARGS_FILES,
	  .description = "Compare the live hosts with what the playbook "
	  "would make them, read-only, for a timer or cron: exit 8 when "
	  "something drifted. Can write node_exporter metrics and post a "
	  "webhook.",
	  .examples = {
	    { "tcptune drift playbooks/drift-check.yml -i fleet.yml",
	      "report drift" },
	    { "tcptune drift playbooks/drift-check.yml -i fleet.yml "
	      "--prometheus /var/lib/node_exporter/textfile_collector/"
	      "tcptune.prom", "for node_exporter's textfile collector" },
	  } },
	{ .name = "rollback", .args = ARGS_HOSTS,
	  .description = "Restore, on each host matching PATTERN (default "
	  "all), the drop-in and the live values saved before tcptune's "
	  "first apply (the rollback module's 'to: previous' goes back one "
	  "apply instead). With -C -D it shows what it would restore.",
	  .examples = {
	    { "tcptune rollback -i fleet.yml -l canary -C -D",
	      "what a rollback would restore" },
	    { "tcptune rollback web -i fleet.yml", "roll back the web group" },
	  } },
	{ .name = "ping", .args = ARGS_HOSTS,
	  .description = "Connect to each host matching PATTERN (default "
	  "all), authenticate and run 'true': is every host reachable?",
	  .examples = {
	    { "tcptune ping -i fleet.yml", "every host" },
	    { "tcptune ping 'web:!canary' -i fleet.yml -f 100",
	      "the web hosts but the canaries, 100 at once" },
	  } },
	{ .name = "probe", .args = ARGS_HOSTS,
	  .description = "Gather every fact of each host matching PATTERN "
	  "(default all) in one round trip: kernel, congestion control, "
	  "qdisc, memory, current sysctls and the file that sets each, RTT "
	  "to its peer. Changes nothing.",
	  .examples = {
	    { "tcptune probe -i fleet.yml -l gcp_europe_west1",
	      "the facts of one region" },
	    { "tcptune probe web1 -i fleet.yml --format json",
	      "one host's facts as JSON" },
	  } },
	{ .name = "verify", .args = ARGS_HOSTS,
	  .description = "Measure each host matching PATTERN (default all) "
	  "that has an iperf_peer with paired iperf3 runs, and print its "
	  "table. KEY=VALUE words are iperf3_verify's parameters "
	  "(tcptune modules iperf3_verify).",
	  .examples = {
	    { "tcptune verify web -i fleet.yml", "measure the web hosts" },
	    { "tcptune verify web -i fleet.yml duration=5 parallel=8",
	      "5 s runs with 8 streams" },
	    { "tcptune verify -i fleet.yml --report paths.html",
	      "also write the path matrix as HTML" },
	  } },
	{ .name = "size", .args = ARGS_PARAMS,
	  .description = "The sizing policy as a calculator, with no host: "
	  "the buffer ceilings tcp_buffers would plan for a bandwidth, an "
	  "RTT and an amount of RAM, and the drop-in it would write. "
	  "KEY=VALUE words are tcp_buffers' parameters.",
	  .examples = {
	    { "tcptune size bandwidth_mbit=1000 rtt_ms=105 mem=8G",
	      "1 Gbit/s over 105 ms on an 8 GiB host" },
	    { "tcptune size bandwidth_mbit=100 rtt_ms=30 mem=1G headroom=3",
	      "with 3x headroom over the BDP" },
	  } },
	{ .name = "modules", .args = ARGS_MODULES,
	  .description = "List the modules a task can call, or show one "
	  "module's parameters: type, default, bounds or choices, and "
	  "help. Printed from the same tables the playbook loader binds "
	  "against.",
	  .examples = {
	    { "tcptune modules", "every module" },
	    { "tcptune modules tcp_buffers", "one module's parameters" },
	  } },
	{ .name = "config", .args = ARGS_NONE,
	  .description = "Show each effective setting, its value and where "
	  "it came from: the command line, an ANSIBLE_* variable, "
	  "ansible.cfg (file:line) or tcptune's default.",
	  .examples = {
	    { "tcptune config", "every setting and its origin" },
	    { "ANSIBLE_FORKS=20 tcptune config --format json",
	      "as JSON, with a variable set" },
	  } },
	{ .name = "version", .args = ARGS_NONE,
	  .description = "Print tcptune's version (also --version or -V).",
	  .examples = {
	    { "tcptune version", "" },
	    { "tcptune --version", "" },
	  } },
	{ .name = "help", .args = ARGS_COMMANDS,
	  .description = "Show the command summary, or one command's usage, "
	  "options and examples: 'tcptune help CMD' is 'tcptune CMD "
	  "--help'.",
	  .examples = {
	    { "tcptune help", "the command summary" },
	    { "tcptune help play", "play's options and examples" },
	  } },
};

const struct cmd_doc *
cmddoc_find(const struct cmd_entry *cmd)
{
	size_t i;

	for (i = 0; i < sizeof cmd_docs / sizeof cmd_docs[0]; i++) {
		if (strcmp(cmd_docs[i].name, cmd->name) == 0)
			return &cmd_docs[i];
	}
	return NULL;
}
