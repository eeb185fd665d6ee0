/* Host ranges and addresses, following ansible's expand_hostname_range()
 * and parse_address() closely enough that the same inventory gives the same
 * host names, quirks included (an alphabetic range is looked up in
 * "a..zA..Z", a descending numeric range is empty). */
#include "inventory/hostrange.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

static const char letters[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Python's int(): surrounding blanks, a sign, digits with single '_'. */
static int
py_int(const char *s, long long *out)
{
	const char	*p = s;
	long long	 v = 0;
	int		 neg = 0, last_digit = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; *p != '\0' && !isspace((unsigned char)*p); p++) {
		if (*p == '_') {
			if (!last_digit || !isdigit((unsigned char)p[1]))
				return -1;
			last_digit = 0;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			return -1;
		if (v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p - '0');
		last_digit = 1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0')
		return -1;
	*out = neg ? -v : v;
	return 0;
}

/* Append s, doubling the array when *n reaches a power of two (no separate
 * capacity to carry: up to HOSTRANGE_MAX_NAMES names, one by one). */
static void
push(char ***names, size_t *n, char *s)
{
	if ((*n & (*n - 1)) == 0)
		*names = xreallocarray(*names, *n == 0 ? 1 : *n * 2,
		    sizeof **names);
	(*names)[(*n)++] = s;
}

/* expand() returns this when the ranges multiply past HOSTRANGE_MAX_NAMES;
 * hostrange_expand names the whole pattern in the message. */
#define TOO_MANY	(-2)

static int expand(const char *line, size_t mult, char ***names, size_t *n,
    char **cause);

static int
emit(const char *head, const char *mid, const char *tail, size_t mult,
    char ***names, size_t *n, char **cause)
{
	char *h = xprintf("%s%s%s", head, mid, tail);
	int r = 0;

	if (strchr(h, '[') != NULL) {
		r = expand(h, mult, names, n, cause);
		free(h);
	} else
		push(names, n, h);
	return r;
}

/* How many values Python's range(b, e + 1, step) has, without signed
 * overflow: the distances are taken as unsigned. step is not 0. */
static unsigned long long
range_count(long long b, long long e, long long step)
{
	unsigned long long dist, ustep;

	if (step > 0) {
		if (e < b)
			return 0;
		dist = (unsigned long long)e - (unsigned long long)b;
		return dist / (unsigned long long)step + 1;
	}
	/* values b, b + step, ... while > e + 1, that is >= e + 2 */
	if (b <= e || b - 1 <= e)
		return 0;
	dist = (unsigned long long)b - (unsigned long long)e - 2;
	ustep = 0ULL - (unsigned long long)step;
	return dist / ustep + 1;
}

/* The k-th value, b + k * step, computed modulo 2^64 (it is in range). */
static long long
range_value(long long b, long long step, unsigned long long k)
{
	unsigned long long v;

	v = (unsigned long long)b + k * (unsigned long long)step;
	return v > (unsigned long long)LLONG_MAX ?
	    -(long long)(0ULL - v - 1) - 1 : (long long)v;
}

/* Does this range, times the enclosing ones (mult), stay within the cap? */
static int
within_cap(unsigned long long count, size_t mult)
{
	return count <= HOSTRANGE_MAX_NAMES &&
	    count * mult <= HOSTRANGE_MAX_NAMES;
}

static int
expand(const char *line, size_t mult, char ***names, size_t *n,
    char **cause)
{
	char			*copy = xstrdup(line), *open, *close, *bounds[4];
	char			*head, *nrange, *tail, *p, *beg, *end;
	char			 numbuf[64], digits[24];
	size_t			 nb = 0, rlen = 0, len;
	long long		 step = 1, b, e, i;
	unsigned long long	 count, k, mag;
	const char		*ib, *ie;
	int			 r = -1, pad = 0;

	/* Ansible replaces the first '[' and the first ']' by '|' and wants
	 * exactly three parts. */
	if (strchr(copy, '|') != NULL) {
		fail(cause, "host name contains '|'");
		goto out;
	}
	open = strchr(copy, '[');
	close = strchr(copy, ']');
	if (open == NULL || close == NULL) {
		fail(cause, "unclosed '[' in host range");
		goto out;
	}
	*open = '\0';
	*close = '\0';
	if (open < close) {
		head = copy;
		nrange = open + 1;
		tail = close + 1;
	} else {
		head = copy;
		nrange = close + 1;
		tail = open + 1;
	}
	for (p = nrange; p != NULL && nb < 4;)
		bounds[nb++] = strsep(&p, ":");
	if (p != NULL)
		nb++;
	if (nb != 2 && nb != 3) {
		fail(cause, "host range must be begin:end or begin:end:step");
		goto out;
	}
	beg = bounds[0];
	end = bounds[1];
	if (*beg == '\0')
		beg = "0";
	if (*end == '\0') {
		fail(cause, "host range must specify end value");
		goto out;
	}
	if (beg[0] == '0' && strlen(beg) > 1) {
		rlen = strlen(beg);
		if (rlen != strlen(end)) {
			fail(cause, "host range must specify equal-length begin "
			    "and end formats");
			goto out;
		}
		pad = 1;
	}
	if (nb == 3 && py_int(bounds[2], &step) != 0)
		step = 0;	/* Python falls through to int(beg) below */

	ib = strstr(letters, beg);
	ie = strstr(letters, end);
	if (ib != NULL && ie != NULL && nb == 3 && step == 0 &&
	    py_int(bounds[2], &step) != 0) {
		fail(cause, "invalid host range step '%s'", bounds[2]);
		goto out;
	}
	if (ib != NULL && ie != NULL && step != 0) {
		if (ib > ie) {
			fail(cause, "host range must have begin <= end");
			goto out;
		}
		/* letters[i_beg:i_end + 1:step] */
		if (step > 0) {
			count = (unsigned long long)(ie - ib) /
			    (unsigned long long)step + 1;
			if (!within_cap(count, mult)) {
				r = TOO_MANY;
				goto out;
			}
			for (k = 0; k < count; k++) {
				char c[2] = { ib[k * step], '\0' };

				if ((r = emit(head, c, tail, count * mult,
				    names, n, cause)) != 0)
					goto out;
			}
		}
		r = 0;
		goto out;
	}
	if (py_int(beg, &b) != 0) {
		fail(cause, "invalid host range begin '%s'", beg);
		goto out;
	}
	if (py_int(end, &e) != 0) {
		fail(cause, "invalid host range end '%s'", end);
		goto out;
	}
	if (nb == 3 && py_int(bounds[2], &step) != 0) {
		fail(cause, "invalid host range step '%s'", bounds[2]);
		goto out;
	}
	if (step == 0) {
		fail(cause, "host range step must not be zero");
		goto out;
	}
	count = range_count(b, e, step);
	if (!within_cap(count, mult)) {
		r = TOO_MANY;
		goto out;
	}
	for (k = 0; k < count; k++) {
		i = range_value(b, step, k);
		mag = i < 0 ? 0ULL - (unsigned long long)i :
		    (unsigned long long)i;
		snprintf(digits, sizeof digits, "%llu", mag);
		len = strlen(digits) + (i < 0);
		/* str(x).zfill(rlen): the sign stays in front */
		snprintf(numbuf, sizeof numbuf, "%s%.*s%s", i < 0 ? "-" : "",
		    pad && rlen > len ? (int)(rlen - len) : 0,
		    "0000000000000000000000000000000", digits);
		if ((r = emit(head, numbuf, tail, count * mult, names, n,
		    cause)) != 0)
			goto out;
	}
	r = 0;
out:
	free(copy);
	return r;
}

int
hostrange_expand(const char *pattern, char ***names, size_t *n, char **cause)
{
	int r;

	*names = NULL;
	*n = 0;
	if (strchr(pattern, '[') == NULL) {
		push(names, n, xstrdup(pattern));
		return 0;
	}
	if ((r = expand(pattern, 1, names, n, cause)) != 0) {
		if (r == TOO_MANY)
			fail(cause, "expands to more than %d host names (the "
			    "cap applies to the product of its ranges)",
			    HOSTRANGE_MAX_NAMES);
		hostrange_free(*names, *n);
		*names = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void
hostrange_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* alphanumeric_range: [a:z] or [0:9] with an optional numeric :step;
 * hex digits for IPv6. Returns the length consumed, 0 if none. */
static size_t
match_range(const char *s, int hex)
{
	const char	*p = s + 1;
	size_t		 k;

	if (*s != '[')
		return 0;
	if (!hex && isalpha((unsigned char)p[0]) && p[1] == ':' &&
	    isalpha((unsigned char)p[2]))
		p += 3;
	else {
		for (k = 0; hex ? isxdigit((unsigned char)p[k]) :
		    isdigit((unsigned char)p[k]); k++)
			;
		if (k == 0 || p[k] != ':')
			return 0;
		p += k + 1;
		for (k = 0; hex ? isxdigit((unsigned char)p[k]) :
		    isdigit((unsigned char)p[k]); k++)
			;
		if (k == 0)
			return 0;
		p += k;
	}
	if (*p == ':') {
		for (k = 1; isdigit((unsigned char)p[k]); k++)
			;
		if (k == 1)
			return 0;
		p += k;
	}
	if (*p != ']')
		return 0;
	return (size_t)(p + 1 - s);
}

static int
is_word(int c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

static int
valid_hostname(const char *s)
{
	const char	*p = s;
	int		 start = 1, last = 0;
	size_t		 k;

	for (;;) {
		if (*p == '\0' || *p == '.') {
			if (start || last == '_' || last == '-')
				return 0;
			if (*p == '\0')
				return 1;
			start = 1;
			p++;
			continue;
		}
		if ((k = match_range(p, 0)) != 0) {
			p += k;
			last = ']';
		} else if (is_word((unsigned char)*p) || (!start && *p == '-')) {
			last = (unsigned char)*p;
			p++;
		} else
			return 0;
		start = 0;
	}
}

static int
valid_ipv6(const char *s)
{
	const char	*p;
	int		 colons = 0;
	size_t		 k;

	for (p = s; *p != '\0';) {
		if ((k = match_range(p, 1)) != 0) {
			p += k;
			continue;
		}
		if (*p == ':')
			colons++;
		else if (!isxdigit((unsigned char)*p) && *p != '.')
			return 0;
		p++;
	}
	/* uncompressed has 7 colons, compressed forms a "::" */
	return colons == 7 || (colons >= 2 && colons <= 7 &&
	    strstr(s, "::") != NULL);
}

char *
hostrange_parse_address(const char *s, int *port, int *parsed)
{
	size_t		 len = strlen(s), i;
	char		*addr = NULL;
	const char	*p;

	*port = -1;
	*parsed = 0;
	/* [host]:port */
	if (s[0] == '[' && (p = strrchr(s, ']')) != NULL && p > s + 1 &&
	    p[1] == ':' && p[2] != '\0' && strspn(p + 2, "0123456789") ==
	    strlen(p + 2)) {
		addr = xstrndup(s + 1, (size_t)(p - s - 1));
		*port = atoi(p + 2);
	} else
		addr = xstrdup(s);
	/* host:port, ranges allowed in host */
	len = strlen(addr);
	for (i = 0; i < len; i++) {
		if (addr[i] == '[') {
			const char *c = strchr(addr + i, ']');

			if (c == NULL)
				break;
			i = (size_t)(c - addr);
		} else if (addr[i] == ']' || addr[i] == ':')
			break;
	}
	if (i < len && addr[i] == ':' && addr[i + 1] != '\0' &&
	    strspn(addr + i + 1, "0123456789") == strlen(addr + i + 1)) {
		*port = atoi(addr + i + 1);
		addr[i] = '\0';
	}
	if (valid_hostname(addr) || valid_ipv6(addr)) {
		*parsed = 1;
		return addr;
	}
	free(addr);
	*port = -1;
	return xstrdup(s);
}
