/* wanem: a user-space WAN emulator for the lab.
 *
 * The kernel here has no netem qdisc, so delay and rate limiting between lab
 * namespaces happen in this process. Each host namespace gets a TUN device
 * 'wan0' opened by us from inside that namespace; an IPv4 packet read from
 * host A's TUN is looked up by destination address, passes through the pipe
 * for (A, B) and is written to B's TUN when it is due.
 *
 * A pipe is a drop-tail queue in front of a serialiser running at the pipe's
 * rate, followed by a constant propagation delay. Since the delay is constant
 * per pipe, packets leave a pipe in the order they entered it, so each pipe
 * is a FIFO ring of fixed 2 KiB slots (no allocation per packet) and only
 * the head of each ring can be due. One thread, one epoll, one timerfd armed
 * with an absolute CLOCK_MONOTONIC deadline at the earliest head. */

#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/if_tun.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wanem-conf.h"
#include "base/xalloc.h"

#define SLOT_SIZE	2048
#define MIN_SLOTS	256
/* 128 MiB of slots per pipe at most; beyond that packets are dropped. */
#define MAX_SLOTS	65536
#define READ_BATCH	64
#define RT_PRIORITY	50
#define TUN_NAME	"wan0"

#define ID_TIMER	((uint64_t)-1)
#define ID_SIGNAL	((uint64_t)-2)
#define ID_NETNS	((uint64_t)-3)

struct pkt {
	uint64_t	 due;		/* CLOCK_MONOTONIC ns */
	uint32_t	 len;
};

struct pipe {
	const struct wan_pipe_conf *pc;
	size_t		 src;
	size_t		 dst;

	struct pkt	*pkts;
	unsigned char	*data;		/* nslots * SLOT_SIZE */
	size_t		 nslots;	/* a power of two */
	size_t		 head;
	size_t		 count;

	uint64_t	 link_free;	/* when the serialiser goes idle */
	uint64_t	 rng;

	uint64_t	 in_packets;
	uint64_t	 packets;	/* delivered */
	uint64_t	 bytes;		/* delivered */
	uint64_t	 drop_queue;
	uint64_t	 drop_loss;
	uint64_t	 drop_mtu;	/* over the pipe's mtu */
	uint64_t	 drop_full;
	uint64_t	 drop_write;
	uint64_t	 max_backlog;	/* bytes waiting for serialisation */
	uint64_t	 max_late_ns;	/* worst delivery after the due time */
};

struct wanem {
	struct wan_conf	 conf;
	int		*fds;		/* TUN per host */
	struct pipe	**pipes;	/* [src * nhosts + dst] or NULL */
	struct pipe	**list;
	size_t		 npipes;

	int		 ep;
	int		 tfd;
	int		 sfd;
	int		 ifd;		/* inotify on /run/netns */
	size_t		 alive;		/* hosts whose TUN is still open */
	uint64_t	 armed;		/* timer deadline, 0 if disarmed */
	uint64_t	 start;

	const char	*stats_path;
	int		 verbose;

	uint64_t	 rx_packets;
	uint64_t	 unknown_dst;
	uint64_t	 no_pipe;
	uint64_t	 not_ipv4;
	uint64_t	 oversize;
};

static unsigned char	 rxbuf[65536];

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void
warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
warnmsg(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	fputs("wanem: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* xorshift64*: cheap and good enough for a loss coin. */
static double
pipe_random(struct pipe *p)
{
	p->rng ^= p->rng >> 12;
	p->rng ^= p->rng << 25;
	p->rng ^= p->rng >> 27;
	return (double)((p->rng * 2685821657736338717ULL) >> 11) /
	    (double)(1ULL << 53);
}

static size_t
pipe_initial_slots(const struct wan_pipe_conf *pc)
{
	double	bytes;
	size_t	n = MIN_SLOTS;

	/* What a pipe holds: its queue plus what is in flight over the
	 * delay. Assume mostly full-size packets; the ring grows if not. */
	bytes = (double)pc->queue_bytes;
	if (pc->rate_bps != 0)
		bytes += (double)pc->rate_bps / 8 * (double)pc->delay_ns / 1e9;
	while (n < MAX_SLOTS && (double)n * 1400 < bytes)
		n *= 2;
	return n;
}

static struct pipe *
pipe_new(const struct wan_pipe_conf *pc, size_t src, size_t dst)
{
	struct pipe	*p;

	p = xcalloc(1, sizeof *p);
	p->pc = pc;
	p->src = src;
	p->dst = dst;
	p->nslots = pipe_initial_slots(pc);
	p->pkts = xcalloc(p->nslots, sizeof *p->pkts);
	p->data = xmalloc(p->nslots * SLOT_SIZE);
	p->rng = (now_ns() ^ ((uint64_t)src << 32 | dst)) | 1;
	return p;
}

static void
pipe_free(struct pipe *p)
{
	if (p == NULL)
		return;
	free(p->pkts);
	free(p->data);
	free(p);
}

/* Double the ring, unwrapping it so head becomes 0. */
static int
pipe_grow(struct pipe *p)
{
	struct pkt	*pkts;
	unsigned char	*data;
	size_t		 n, i, j;

	if (p->nslots >= MAX_SLOTS)
		return -1;
	n = p->nslots * 2;
	pkts = xcalloc(n, sizeof *pkts);
	data = xmalloc(n * SLOT_SIZE);
	for (i = 0; i < p->count; i++) {
		j = (p->head + i) & (p->nslots - 1);
		pkts[i] = p->pkts[j];
		memcpy(data + i * SLOT_SIZE, p->data + j * SLOT_SIZE,
		    p->pkts[j].len);
	}
	free(p->pkts);
	free(p->data);
	p->pkts = pkts;
	p->data = data;
	p->nslots = n;
	p->head = 0;
	return 0;
}

static void
pipe_enqueue(struct pipe *p, const unsigned char *buf, size_t len,
    uint64_t now)
{
	const struct wan_pipe_conf	*pc = p->pc;
	struct pkt			*k;
	uint64_t			 due, backlog, start;
	size_t				 i;

	p->in_packets++;
	/* An MTU blackhole: dropped before the link, as the router that
	 * cannot forward it does, and no ICMP back. */
	if (pc->mtu != 0 && len > pc->mtu) {
		p->drop_mtu++;
		return;
	}
	if (pc->rate_bps != 0) {
		/* Bytes not yet serialised: the fluid backlog. */
		backlog = 0;
		if (p->link_free > now)
			backlog = (uint64_t)((double)(p->link_free - now) *
			    (double)pc->rate_bps / 8e9);
		if (pc->queue_bytes != 0 && backlog + len > pc->queue_bytes) {
			p->drop_queue++;
			return;
		}
		if (backlog + len > p->max_backlog)
			p->max_backlog = backlog + len;
		start = p->link_free > now ? p->link_free : now;
		p->link_free = start + (uint64_t)len * 8000000000ULL /
		    pc->rate_bps;
		due = p->link_free + pc->delay_ns;
	} else
		due = now + pc->delay_ns;

	/* Loss happens on the wire, after the packet used its link time. */
	if (pc->loss > 0 && pipe_random(p) < pc->loss) {
		p->drop_loss++;
		return;
	}
	if (p->count == p->nslots && pipe_grow(p) != 0) {
		p->drop_full++;
		return;
	}
	i = (p->head + p->count) & (p->nslots - 1);
	k = &p->pkts[i];
	k->due = due;
	k->len = (uint32_t)len;
	memcpy(p->data + i * SLOT_SIZE, buf, len);
	p->count++;
}

/* Write out every due packet; return the next head deadline or 0. */
static uint64_t
pipe_deliver(struct pipe *p, int fd, uint64_t now)
{
	struct pkt	*k;

	while (p->count != 0) {
		k = &p->pkts[p->head];
		if (k->due > now)
			return k->due;
		/* How late the emulator itself was (a busy CPU): what a
		 * test must allow beyond the configured delay. */
		if (now - k->due > p->max_late_ns)
			p->max_late_ns = now - k->due;
		if (fd != -1 && write(fd, p->data + p->head * SLOT_SIZE,
		    k->len) == (ssize_t)k->len) {
			p->packets++;
			p->bytes += k->len;
		} else
			p->drop_write++;
		p->head = (p->head + 1) & (p->nslots - 1);
		p->count--;
	}
	return 0;
}

static ssize_t
lookup_host(const struct wanem *w, const unsigned char *addr)
{
	uint32_t	a;
	size_t		i;

	memcpy(&a, addr, sizeof a);
	for (i = 0; i < w->conf.nhosts; i++) {
		if (w->conf.hosts[i].addr.s_addr == a)
			return (ssize_t)i;
	}
	return -1;
}

/*
 * A TUN file descriptor holds a reference on its network namespace, so after
 * 'ip netns del' (the lab going down first) the namespace, its wan0 and its
 * veth would live on as long as we do. Let go of hosts whose namespace name
 * is gone; packets still queued for them count as drop_write.
 */
static void
drop_dead_hosts(struct wanem *w)
{
	char	 buf[4096], *path;
	size_t	 i;

	while (read(w->ifd, buf, sizeof buf) > 0)
		;
	for (i = 0; i < w->conf.nhosts; i++) {
		if (w->fds[i] == -1)
			continue;
		path = xprintf("/run/netns/%s", w->conf.hosts[i].netns);
		if (access(path, F_OK) != 0 && errno == ENOENT) {
			warnmsg("namespace '%s' is gone; dropping host '%s'",
			    w->conf.hosts[i].netns, w->conf.hosts[i].name);
			epoll_ctl(w->ep, EPOLL_CTL_DEL, w->fds[i], NULL);
			close(w->fds[i]);
			w->fds[i] = -1;
			w->alive--;
		}
		free(path);
	}
}

static void
read_host(struct wanem *w, size_t src)
{
	struct pipe	*p;
	ssize_t		 n, dst;
	int		 i;

	for (i = 0; i < READ_BATCH; i++) {
		n = read(w->fds[src], rxbuf, sizeof rxbuf);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			/* The device is gone (its namespace died?): stop
			 * polling it rather than spin on a level-triggered
			 * error. Writes to it count as drop_write. */
			warnmsg("read from '%s': %s; ignoring it from now on",
			    w->conf.hosts[src].name, strerror(errno));
			epoll_ctl(w->ep, EPOLL_CTL_DEL, w->fds[src], NULL);
			return;
		}
		w->rx_packets++;
		if (n > SLOT_SIZE) {
			w->oversize++;
			continue;
		}
		if (n < 20 || (rxbuf[0] >> 4) != 4) {
			w->not_ipv4++;
			continue;
		}
		if ((dst = lookup_host(w, rxbuf + 16)) == -1) {
			w->unknown_dst++;
			continue;
		}
		p = w->pipes[src * w->conf.nhosts + dst];
		if (p == NULL) {
			w->no_pipe++;
			continue;
		}
		pipe_enqueue(p, rxbuf, (size_t)n, now_ns());
	}
}

/* Deliver what is due and arm the timer for the earliest head left. */
static int
deliver_and_arm(struct wanem *w)
{
	struct itimerspec	 its;
	uint64_t		 now, next, d;
	size_t			 i;

	for (;;) {
		now = now_ns();
		next = 0;
		for (i = 0; i < w->npipes; i++) {
			d = pipe_deliver(w->list[i], w->fds[w->list[i]->dst],
			    now);
			if (d != 0 && (next == 0 || d < next))
				next = d;
		}
		/* Something fell due while we were writing: go again. */
		if (next == 0 || next > now_ns())
			break;
	}
	if (next == w->armed)
		return 0;
	memset(&its, 0, sizeof its);
	its.it_value.tv_sec = next / 1000000000ULL;
	its.it_value.tv_nsec = next % 1000000000ULL;
	if (timerfd_settime(w->tfd, TFD_TIMER_ABSTIME, &its, NULL) != 0) {
		warnmsg("timerfd_settime: %s", strerror(errno));
		return -1;
	}
	w->armed = next;
	return 0;
}

static void
write_stats(struct wanem *w)
{
	struct pipe	*p;
	FILE		*f = stderr;
	char		*tmp = NULL;
	size_t		 i;

	if (w->stats_path != NULL) {
		tmp = xprintf("%s.tmp", w->stats_path);
		if ((f = fopen(tmp, "w")) == NULL) {
			warnmsg("%s: %s", tmp, strerror(errno));
			free(tmp);
			return;
		}
	}
	fprintf(f, "uptime=%.3f rx=%llu unknown_dst=%llu no_pipe=%llu "
	    "not_ipv4=%llu oversize=%llu\n", (now_ns() - w->start) / 1e9,
	    (unsigned long long)w->rx_packets,
	    (unsigned long long)w->unknown_dst,
	    (unsigned long long)w->no_pipe, (unsigned long long)w->not_ipv4,
	    (unsigned long long)w->oversize);
	for (i = 0; i < w->npipes; i++) {
		p = w->list[i];
		fprintf(f, "pipe %s %s in=%llu packets=%llu bytes=%llu "
		    "drop_queue=%llu drop_loss=%llu drop_mtu=%llu "
		    "drop_full=%llu drop_write=%llu max_backlog=%llu "
		    "max_late_us=%llu queued=%zu\n",
		    w->conf.hosts[p->src].name, w->conf.hosts[p->dst].name,
		    (unsigned long long)p->in_packets,
		    (unsigned long long)p->packets,
		    (unsigned long long)p->bytes,
		    (unsigned long long)p->drop_queue,
		    (unsigned long long)p->drop_loss,
		    (unsigned long long)p->drop_mtu,
		    (unsigned long long)p->drop_full,
		    (unsigned long long)p->drop_write,
		    (unsigned long long)p->max_backlog,
		    (unsigned long long)(p->max_late_ns / 1000), p->count);
	}
	if (tmp != NULL) {
		if (fclose(f) != 0 || rename(tmp, w->stats_path) != 0)
			warnmsg("%s: %s", w->stats_path, strerror(errno));
		free(tmp);
	} else
		fflush(f);
}

/* Open /dev/net/tun from inside the host's namespace: a TUN device belongs
 * to the namespace it was created in, and wan0 goes away when we exit. */
static int
open_tun(const struct wan_host *h, int home, char **cause)
{
	struct ifreq	 ifr;
	char		*path;
	int		 ns, fd = -1, r = -1;

	path = xprintf("/run/netns/%s", h->netns);
	if ((ns = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		fail(cause, "host '%s': %s: %s", h->name, path,
		    strerror(errno));
		goto out;
	}
	if (setns(ns, CLONE_NEWNET) != 0) {
		fail(cause, "host '%s': setns: %s", h->name, strerror(errno));
		goto out;
	}
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		fail(cause, "host '%s': /dev/net/tun: %s", h->name,
		    strerror(errno));
	else {
		memset(&ifr, 0, sizeof ifr);
		ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
		strncpy(ifr.ifr_name, TUN_NAME, IFNAMSIZ - 1);
		if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
			fail(cause, "host '%s': TUNSETIFF '%s': %s", h->name,
			    TUN_NAME, strerror(errno));
			close(fd);
			fd = -1;
		}
	}
	if (setns(home, CLONE_NEWNET) != 0) {
		/* Every later host would land in the wrong namespace. */
		fprintf(stderr, "wanem: setns back: %s\n", strerror(errno));
		exit(1);
	}
	r = fd;
out:
	if (ns != -1)
		close(ns);
	free(path);
	return r;
}

static void
go_realtime(void)
{
	struct sched_param	sp;

	memset(&sp, 0, sizeof sp);
	sp.sched_priority = RT_PRIORITY;
	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		warnmsg("SCHED_FIFO not permitted (%s): delays will jitter "
		    "more", strerror(errno));
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		warnmsg("mlockall failed (%s): page faults may add delay",
		    strerror(errno));
	/* Fire timers on time rather than coalescing them. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

static void
print_conf(const struct wan_conf *conf)
{
	const struct wan_pipe_conf	*pc;
	char				 a[INET_ADDRSTRLEN];
	size_t				 i, j;

	for (i = 0; i < conf->nhosts; i++) {
		inet_ntop(AF_INET, &conf->hosts[i].addr, a, sizeof a);
		printf("host %s %s %s\n", conf->hosts[i].name,
		    conf->hosts[i].netns, a);
	}
	for (i = 0; i < conf->nhosts; i++) {
		for (j = 0; j < conf->nhosts; j++) {
			if ((pc = wan_conf_pipe(conf, i, j)) == NULL)
				continue;
			printf("pipe %s %s delay_ns=%llu rate_bps=%llu "
			    "queue_bytes=%llu loss=%g", conf->hosts[i].name,
			    conf->hosts[j].name,
			    (unsigned long long)pc->delay_ns,
			    (unsigned long long)pc->rate_bps,
			    (unsigned long long)pc->queue_bytes, pc->loss);
			/* Only when set: the line is otherwise what it was. */
			if (pc->mtu != 0)
				printf(" mtu=%u", (unsigned)pc->mtu);
			putchar('\n');
		}
	}
}

static int
write_pidfile(const char *path)
{
	FILE	*f;
	char	*tmp;
	int	 r = -1;

	tmp = xprintf("%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL)
		goto out;
	fprintf(f, "%ld\n", (long)getpid());
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		goto out;
	r = 0;
out:
	if (r != 0)
		warnmsg("%s: %s", path, strerror(errno));
	free(tmp);
	return r;
}

static int
epoll_add(int ep, int fd, uint64_t id)
{
	struct epoll_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN;
	ev.data.u64 = id;
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static void
usage(void)
{
	fprintf(stderr, "usage: wanem --config FILE [--pidfile FILE] "
	    "[--stats FILE] [--check] [--no-rt]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "stats", required_argument, NULL, 's' },
		{ "check", no_argument, NULL, 'n' },
		{ "no-rt", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct wanem			 w;
	struct epoll_event		 evs[16];
	struct signalfd_siginfo		 si;
	const struct wan_pipe_conf	*pc;
	const char			*config = NULL, *pidfile = NULL;
	char				*cause = NULL;
	sigset_t			 sigs;
	uint64_t			 expirations;
	size_t				 i, j, nh;
	int				 c, check = 0, rt = 1, home = -1, n;
	int				 done = 0, rc = 1;

	/* Run in the background by wan.sh: keep no inherited descriptor
	 * (a caller's pipe would otherwise wait for us to exit). */
	close_range(3, ~0U, 0);

	memset(&w, 0, sizeof w);
	w.ep = w.tfd = w.sfd = w.ifd = -1;
	while ((c = getopt_long(argc, argv, "c:p:s:nRh", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 's':
			w.stats_path = optarg;
			break;
		case 'n':
			check = 1;
			break;
		case 'R':
			rt = 0;
			break;
		default:
			usage();
		}
	}
	if (config == NULL || optind != argc)
		usage();

	if (wan_conf_load(&w.conf, config, &cause) != 0) {
		fprintf(stderr, "wanem: %s\n", cause);
		goto out;
	}
	if (check) {
		print_conf(&w.conf);
		rc = 0;
		goto out;
	}
	nh = w.conf.nhosts;

	/* Signals arrive through the epoll loop, never asynchronously. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &sigs, NULL) != 0 ||
	    (w.sfd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC)) == -1) {
		warnmsg("signalfd: %s", strerror(errno));
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);

	w.fds = xcalloc(nh, sizeof *w.fds);
	for (i = 0; i < nh; i++)
		w.fds[i] = -1;
	if ((home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1) {
		warnmsg("/proc/self/ns/net: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < nh; i++) {
		if ((w.fds[i] = open_tun(&w.conf.hosts[i], home,
		    &cause)) == -1) {
			warnmsg("%s", cause);
			goto out;
		}
	}

	w.pipes = xcalloc(nh * nh, sizeof *w.pipes);
	w.list = xcalloc(nh * nh, sizeof *w.list);
	for (i = 0; i < nh; i++) {
		for (j = 0; j < nh; j++) {
			if ((pc = wan_conf_pipe(&w.conf, i, j)) == NULL)
				continue;
			w.pipes[i * nh + j] = pipe_new(pc, i, j);
			w.list[w.npipes++] = w.pipes[i * nh + j];
		}
	}

	if ((w.ep = epoll_create1(EPOLL_CLOEXEC)) == -1 ||
	    (w.tfd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC)) == -1) {
		warnmsg("epoll/timerfd: %s", strerror(errno));
		goto out;
	}
	if (epoll_add(w.ep, w.tfd, ID_TIMER) != 0 ||
	    epoll_add(w.ep, w.sfd, ID_SIGNAL) != 0) {
		warnmsg("epoll_ctl: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < nh; i++) {
		if (epoll_add(w.ep, w.fds[i], i) != 0) {
			warnmsg("epoll_ctl: %s", strerror(errno));
			goto out;
		}
	}
	w.alive = nh;
	if ((w.ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1 ||
	    inotify_add_watch(w.ifd, "/run/netns", IN_DELETE) == -1 ||
	    epoll_add(w.ep, w.ifd, ID_NETNS) != 0)
		warnmsg("cannot watch /run/netns (%s): run 'wan.sh down' "
		    "before deleting the namespaces", strerror(errno));

	if (rt)
		go_realtime();
	w.start = now_ns();
	if (pidfile != NULL && write_pidfile(pidfile) != 0)
		goto out;
	warnmsg("ready: %zu hosts, %zu pipes, pid %ld", nh, w.npipes,
	    (long)getpid());

	while (!done) {
		n = epoll_wait(w.ep, evs, sizeof evs / sizeof evs[0], -1);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			warnmsg("epoll_wait: %s", strerror(errno));
			goto out;
		}
		for (c = 0; c < n; c++) {
			if (evs[c].data.u64 == ID_TIMER) {
				/* A one-shot timer that fired is disarmed. */
				if (read(w.tfd, &expirations,
				    sizeof expirations) > 0)
					w.armed = 0;
			} else if (evs[c].data.u64 == ID_SIGNAL) {
				while (read(w.sfd, &si, sizeof si) ==
				    sizeof si) {
					if (si.ssi_signo == SIGUSR1)
						write_stats(&w);
					else
						done = 1;
				}
			} else if (evs[c].data.u64 == ID_NETNS) {
				drop_dead_hosts(&w);
				if (w.alive == 0) {
					warnmsg("no host left");
					done = 1;
				}
			} else if (w.fds[evs[c].data.u64] != -1)
				read_host(&w, (size_t)evs[c].data.u64);
		}
		if (deliver_and_arm(&w) != 0)
			goto out;
	}
	warnmsg("exiting");
	rc = 0;
out:
	if (w.list != NULL)
		write_stats(&w);
	if (pidfile != NULL && w.start != 0)
		unlink(pidfile);
	for (i = 0; i < w.npipes; i++)
		pipe_free(w.list[i]);
	free(w.pipes);
	free(w.list);
	if (w.fds != NULL) {
		for (i = 0; i < w.conf.nhosts; i++) {
			if (w.fds[i] != -1)
				close(w.fds[i]);
		}
		free(w.fds);
	}
	if (home != -1)
		close(home);
	if (w.ep != -1)
		close(w.ep);
	if (w.tfd != -1)
		close(w.tfd);
	if (w.sfd != -1)
		close(w.sfd);
	if (w.ifd != -1)
		close(w.ifd);
	wan_conf_free(&w.conf);
	free(cause);
	return rc;
}
