/* uml-xstate.so - lets Debian's User-mode Linux 6.1 run on a host whose
 * XSAVE area is larger than UML's (AVX-512, AMX).
 *
 * UML saves and restores a guest process's FPU state with
 * ptrace(PTRACE_{GET,SET}REGSET, NT_X86_XSTATE) into a buffer sized for
 * x87+SSE+AVX (832 bytes). Reading with a short buffer is fine (the host
 * kernel copies what fits), but the host refuses a write that is not the
 * whole user XSAVE area (EFAULT: "userspace - ptrace set fp regs failed,
 * errno = 14", then init dies). This preloaded wrapper completes such a
 * write: it keeps the tracee's whole area from UML's last read of it, lays
 * UML's bytes over the start of it, keeps the tracee's own state for the
 * components UML's buffer does not reach (their XSTATE_BV bits too), and
 * writes the whole area. On a
 * host whose area fits UML's buffer nothing changes. Only the guests lab
 * uses it (tests/guests/guests.sh); tcptune never does. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE	0x202
#endif
#define XSAVE_MAX	(64 * 1024)	/* above any XSAVE area so far */
#define XSTATE_BV_AT	512		/* the XSAVE header's first word */

typedef long (*ptrace_fn)(enum __ptrace_request, pid_t, void *, void *);

/* The XSTATE_BV bits of the components that lie wholly within the first
 * len bytes of a standard-format XSAVE area (CPUID leaf 0xD gives each
 * component's size and offset; x87 and SSE are in the legacy 512 bytes). */
static uint64_t
components_within(size_t len)
{
	static size_t	for_len;
	static uint64_t	known;
	unsigned	a, b, c, d, i;
	uint64_t	mask = 0;

	if (for_len == len && len > 0)
		return known;

	if (len >= 512)
		mask |= 0x3;
	for (i = 2; i < 63; i++) {
		__cpuid_count(0xd, i, a, b, c, d);
		if (a != 0 && (size_t)b + a <= len)
			mask |= (uint64_t)1 << i;
	}
	(void)c;
	(void)d;
	for_len = len;
	known = mask;
	return mask;
}

/* The whole area of each tracee as its last NT_X86_XSTATE read found it:
 * UML reads a process's state when it traps and writes it back before it
 * resumes, and the process does not run in between, so the last read is
 * the state to complete a write with, and no extra system call is needed
 * (a write is as frequent as a guest's system calls). A few tracees at a
 * time: one per guest address space, and UML's helpers. */
#define CACHED	16
static struct {
	pid_t		pid;
	size_t		len;
	unsigned char	area[XSAVE_MAX] __attribute__((aligned(64)));
} cache[CACHED];
static unsigned	next_slot;

static int
slot_of(pid_t pid, int make)
{
	unsigned i;

	for (i = 0; i < CACHED; i++) {
		if (cache[i].pid == pid && cache[i].len > 0)
			return (int)i;
	}
	if (!make)
		return -1;
	i = next_slot++ % CACHED;
	cache[i].pid = pid;
	cache[i].len = 0;
	return (int)i;
}

long
ptrace(enum __ptrace_request req, ...)
{
	static ptrace_fn	 real;
	va_list			 ap;
	pid_t			 pid;
	void			*addr, *data;
	struct iovec		*iov, all;
	uint64_t		 mine, theirs, keep;
	size_t			 n;
	int			 i;
	long			 r;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if (real == NULL)
		real = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
	if ((req != PTRACE_GETREGSET && req != PTRACE_SETREGSET) ||
	    (uintptr_t)addr != NT_X86_XSTATE || data == NULL)
		return real(req, pid, addr, data);
	iov = data;
	if (req == PTRACE_GETREGSET) {
		/* the whole area into the cache, UML's part of it to UML */
		i = slot_of(pid, 1);
		all.iov_base = cache[i].area;
		all.iov_len = sizeof cache[i].area;
		if ((r = real(req, pid, addr, &all)) < 0) {
			cache[i].len = 0;
			return r;
		}
		cache[i].len = all.iov_len;
		n = iov->iov_len < all.iov_len ? iov->iov_len : all.iov_len;
		memcpy(iov->iov_base, cache[i].area, n);
		iov->iov_len = n;
		return r;
	}
	/* a tracee not read yet (a new process): read it now */
	if ((i = slot_of(pid, 0)) < 0) {
		i = slot_of(pid, 1);
		all.iov_base = cache[i].area;
		all.iov_len = sizeof cache[i].area;
		if (real(PTRACE_GETREGSET, pid, addr, &all) < 0)
			return real(req, pid, addr, data);
		cache[i].len = all.iov_len;
	}
	/* a write that is the whole area already: as is */
	if (cache[i].len <= iov->iov_len || iov->iov_len < XSTATE_BV_AT + 8)
		return real(req, pid, addr, data);
	keep = ~components_within(iov->iov_len);
	memcpy(&theirs, cache[i].area + XSTATE_BV_AT, sizeof theirs);
	memcpy(cache[i].area, iov->iov_base, iov->iov_len);
	memcpy(&mine, cache[i].area + XSTATE_BV_AT, sizeof mine);
	mine = (mine & ~keep) | (theirs & keep);
	memcpy(cache[i].area + XSTATE_BV_AT, &mine, sizeof mine);
	all.iov_base = cache[i].area;
	all.iov_len = cache[i].len;
	return real(req, pid, addr, &all);
}
