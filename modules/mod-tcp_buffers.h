/* tcp_buffers's conf, shared with `tcptune size` (cmd/tcptune/cmd-size.c),
 * which binds its KEY=VALUE words through the same parameter table, so the
 * calculator and the module accept and refuse the same values. */
#ifndef TCPTUNE_MOD_TCP_BUFFERS_H
#define TCPTUNE_MOD_TCP_BUFFERS_H

#include <stdint.h>

#include "playbook/module.h"
#include "tune/sizing.h"
#include "tune/sizing-extra.h"

struct tcp_buffers_conf {
	struct module_conf	 hdr;
	double			 rtt_ms;	/* 0: not given */
	double			 bandwidth_mbit; /* 0: not given */
	double			 headroom;
	long long		 ram_divisor;
	uint64_t		 max_buffer;
	uint64_t		 rmem_default;	/* 0: not given */
	uint64_t		 wmem_default;	/* 0: not given */
	int			 allow_decrease;
	const char		*sysctl_file;
	/* The keys beyond buffers (tune/sizing-extra.h). */
	int			 long_lived;
	int			 latency_sensitive;
	uint64_t		 notsent_lowat;
	const char		*mtu_probing;	/* auto, on, off */
	int			 netdev_backlog;
};

extern const struct module mod_tcp_buffers;

/* The sizing policy's inputs that the conf gives; in leaves the ones a
 * host's facts give (RTT and bandwidth fallbacks, RAM, current values). */
void	tcp_buffers_input(const struct tcp_buffers_conf *conf,
	    struct sizing_input *in);

/* The same for the keys beyond buffers; in leaves the host's (the
 * congestion control, the path checks' blackhole, the keys' states). */
void	tcp_buffers_extra_input(const struct tcp_buffers_conf *conf,
	    struct sizing_extra_input *in);

#endif
