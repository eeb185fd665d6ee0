/* uml-xstate.so - lets Debian's User-mode Linux 6.1 run on a host whose
 * XSAVE area is larger than UML's (AVX-512, AMX).
 *
 * UML saves and restores a guest process's FPU state with
 * ptrace(PTRACE_{GET,SET}REGSET, NT_X86_XSTATE) into a buffer sized for
 * x87+SSE+AVX (832 bytes). Reading with a short buffer is fine (the host
 * kernel copies what fits), but the host refuses a write that is not the
 * whole user XSAVE area (EFAULT: "userspace - ptrace set fp regs failed,
 * errno = 14", then init dies). This preloaded wrapper completes such a
 * write: it reads the tracee's whole area, lays UML's bytes over the start
 * of it, keeps the tracee's own state for the components UML's buffer does
 * not reach (their XSTATE_BV bits too), and writes the whole area. On a
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
	unsigned	a, b, c, d, i;
	uint64_t	mask = 0;

	if (len >= 512)
		mask |= 0x3;
	for (i = 2; i < 63; i++) {
		__cpuid_count(0xd, i, a, b, c, d);
		if (a != 0 && (size_t)b + a <= len)
			mask |= (uint64_t)1 << i;
	}
	(void)c;
	(void)d;
	return mask;
}

long
ptrace(enum __ptrace_request req, ...)
{
	static ptrace_fn	 real;
	static unsigned char	 whole[XSAVE_MAX] __attribute__((aligned(64)));
	va_list			 ap;
	pid_t			 pid;
	void			*addr, *data;
	struct iovec		*iov, all;
	uint64_t		 mine, theirs, keep;
	long			 r;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if (real == NULL)
		real = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
	if (req != PTRACE_SETREGSET || (uintptr_t)addr != NT_X86_XSTATE ||
	    data == NULL)
		return real(req, pid, addr, data);
	iov = data;
	all.iov_base = whole;
	all.iov_len = sizeof whole;
	/* the whole area as the host has it; UML's write fits it as is? */
	if (real(PTRACE_GETREGSET, pid, addr, &all) < 0 ||
	    all.iov_len <= iov->iov_len || iov->iov_len < XSTATE_BV_AT + 8)
		return real(req, pid, addr, data);
	keep = ~components_within(iov->iov_len);
	memcpy(&theirs, whole + XSTATE_BV_AT, sizeof theirs);
	memcpy(whole, iov->iov_base, iov->iov_len);
	memcpy(&mine, whole + XSTATE_BV_AT, sizeof mine);
	mine = (mine & ~keep) | (theirs & keep);
	memcpy(whole + XSTATE_BV_AT, &mine, sizeof mine);
	r = real(PTRACE_SETREGSET, pid, addr, &all);
	return r;
}
