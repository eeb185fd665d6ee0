/* libFuzzer harness: iperf3's -J document and the server start line
 * (lib/remote/iperf.c), both printed by a peer host; a parsed run goes through
 * its JSON form and back, as the baseline kept in a host's memo does. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "remote/iperf.h"
#include "remote/tcpinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iperf_run	 run, back;
	struct iperf_set	 set;
	json_t			*j;
	char			*cause = NULL, *text;
	long			 pid;
	int			 port;

	if (iperf_parse((const char *)data, size, &run, &cause) == 0) {
		j = iperf_run_json(&run);
		if (iperf_run_from_json(j, &back) != 0)
			abort();
		json_decref(j);
	}
	free(cause);
	cause = NULL;
	if ((text = strndup((const char *)data, size)) == NULL)
		return 0;
	if (iperf_server_parse(text, &pid, &port, NULL, &cause) != 0)
		free(cause);
	/* the samples a host prints after a client's document */
	json_decref(tcpinfo_parse(text));
	free(text);
	/* a memo's baseline, as read back from the host's state */
	if ((j = json_loadb((const char *)data, size, 0, NULL)) != NULL) {
		if (iperf_set_from_json(j, &set) == 0)
			json_decref(iperf_set_json(&set));
		json_decref(j);
	}
	return 0;
}
