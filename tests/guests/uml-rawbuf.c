/* uml-rawbuf.so - gives a User-mode Linux guest's raw network sockets a
 * receive buffer that outlasts the guest's scheduling gaps.
 *
 * The guests' NICs use UML's vector driver with the raw transport: the
 * guest kernel reads its frames from an AF_PACKET socket on the host's
 * veth. That socket gets the host's net.core.rmem_default (212992 bytes,
 * about 90 full frames: 7 ms at 150 Mbit/s), and a frame that arrives while
 * it is full is dropped. A UML guest is one host process, so whenever the
 * host runs something else for a few ms the socket overflows: the guest
 * WAN lost 2-5% of a 150 Mbit/s flow's segments, which no real path of
 * that kind does (e2e/guests-verify measured the loss, not the tuning; the
 * socket's Rmem was seen at 214272 of 212992 in /proc/net/packet).
 *
 * This preloaded wrapper sets SO_RCVBUFFORCE and SO_SNDBUFFORCE (the guest
 * lab runs as root; no sysctl of this machine changes) on each AF_PACKET
 * socket the guest opens, as a NIC's ring would hold them. Only the guests
 * lab uses it (tests/guests/guests.sh), beside uml-xstate.so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/socket.h>

#ifndef AF_PACKET
#define AF_PACKET	17
#endif
/* 8 MiB: 0.45 s of a 150 Mbit/s flow in full frames' truesize. */
#define RAW_BUFFER	(8 * 1024 * 1024)

typedef int (*socket_fn)(int, int, int);

int
socket(int domain, int type, int protocol)
{
	static socket_fn	real;
	int			fd, size = RAW_BUFFER;

	if (real == NULL)
		real = (socket_fn)dlsym(RTLD_NEXT, "socket");
	fd = real(domain, type, protocol);
	if (fd >= 0 && domain == AF_PACKET) {
		/* Best effort: without CAP_NET_ADMIN the defaults stay. */
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
		    sizeof size);
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
		    sizeof size);
	}
	return fd;
}
