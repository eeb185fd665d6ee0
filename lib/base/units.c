/* Byte sizes; the rules are in units.h. */

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "base/xalloc.h"

struct unit {
	const char	*name;
	uint64_t	 mult;
};

/* Units are matched exactly (case-sensitive): "m" or "mib" are errors
 * rather than guesses, since millibytes and mebibytes differ by 2^20. */
static const struct unit units[] = {
	{ "", 1 }, { "B", 1 },
	{ "K", KiB }, { "KiB", KiB },
	{ "M", MiB }, { "MiB", MiB },
	{ "G", GiB }, { "GiB", GiB },
	{ "T", TiB }, { "TiB", TiB },
	{ "kB", 1000 }, { "KB", 1000 },
	{ "MB", 1000000 },
	{ "GB", 1000000000 },
	{ "TB", 1000000000000ULL },
};

int
parse_size(const char *s, uint64_t *out, char **cause)
{
	const char	*p = s, *unit;
	uint64_t	 whole = 0, frac = 0, scale = 1, mult = 0, v, fv;
	size_t		 i, ndigits = 0, nfrac = 0;

	while (isspace((unsigned char)*p))
		p++;
	for (; isdigit((unsigned char)*p); p++, ndigits++) {
		if (whole > UINT64_MAX / 10 || (whole == UINT64_MAX / 10 &&
		    (uint64_t)(*p - '0') > UINT64_MAX % 10))
			return fail(cause, "size too large: '%s'", s);
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, nfrac++) {
			/* More than 18 decimals cannot matter for bytes
			 * (units are at most 2^40); ignore zeros beyond. */
			if (nfrac >= 18) {
				if (*p != '0')
					return fail(cause, "too many decimals "
					    "in size '%s'", s);
				continue;
			}
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (nfrac == 0)
			return fail(cause, "invalid size '%s'", s);
	}
	if (ndigits == 0)
		return fail(cause, "invalid size '%s': expected a number of "
		    "bytes such as 16777216, 16M or 16MiB", s);
	while (*p == ' ' || *p == '\t')
		p++;
	unit = p;
	while (*p != '\0' && !isspace((unsigned char)*p))
		p++;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strlen(units[i].name) == (size_t)(p - unit) &&
		    strncmp(units[i].name, unit, p - unit) == 0) {
			mult = units[i].mult;
			break;
		}
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0' || mult == 0)
		return fail(cause, "invalid size '%s': unknown unit (use B, "
		    "K/KiB, M/MiB, G/GiB, T/TiB or KB/MB/GB/TB)", s);

	if (whole > UINT64_MAX / mult)
		return fail(cause, "size too large: '%s'", s);
	v = whole * mult;
	if (frac != 0) {
		/* frac/scale * mult must be a whole number of bytes. With
		 * g = gcd(mult, scale), mult/g and scale/g are coprime, so
		 * that holds exactly when scale/g divides frac. */
		uint64_t a = mult, b = scale, t;

		while (b != 0) {
			t = a % b;
			a = b;
			b = t;
		}
		if (frac % (scale / a) != 0)
			return fail(cause, "invalid size '%s': not a whole "
			    "number of bytes", s);
		fv = frac / (scale / a);
		if (fv > UINT64_MAX / (mult / a))
			return fail(cause, "size too large: '%s'", s);
		fv *= mult / a;
		if (fv > UINT64_MAX - v)
			return fail(cause, "size too large: '%s'", s);
		v += fv;
	}
	*out = v;
	return 0;
}

/* Format v in units of base (1000 or 1024) with the given unit names. */
static char *
format_units(uint64_t v, uint64_t base, const char *const *names,
    size_t nnames)
{
	uint64_t	u = 1, q, r, tenths;
	size_t		i = 0;

	while (i + 1 < nnames && v / u >= base) {
		u *= base;
		i++;
	}
	q = v / u;
	r = v % u;
	if (r == 0)
		return xprintf("%llu %s", (unsigned long long)q, names[i]);
	/* Round to tenths, halves up; r * 10 < u * 10 fits in 64 bits for
	 * every unit used here (u <= 2^60 or 10^18). */
	tenths = q * 10 + (r * 10 + u / 2) / u;
	if (tenths >= base * 10 && i + 1 < nnames) {
		/* 1023.96 KiB rounds to 1024.0: say 1.0 MiB instead. */
		return xprintf("1.0 %s", names[i + 1]);
	}
	return xprintf("%llu.%llu %s", (unsigned long long)(tenths / 10),
	    (unsigned long long)(tenths % 10), names[i]);
}

char *
format_bytes_binary(uint64_t v)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB",
		"PiB", "EiB" };

	return format_units(v, 1024, names, sizeof names / sizeof names[0]);
}

char *
format_bytes_decimal(uint64_t v)
{
	static const char *const names[] = { "B", "kB", "MB", "GB", "TB",
		"PB", "EB" };

	return format_units(v, 1000, names, sizeof names / sizeof names[0]);
}

char *
format_tenths(double v)
{
	long long	t;
	const char	*sign = "";

	if (isnan(v))
		return xstrdup("nan");
	if (v < 0) {
		sign = "-";
		v = -v;
	}
	if (v > 1e15)
		return xprintf("%s%.0f", sign, v);	/* no decimals anyway */
	/* Half up: 0.05 -> 0.1. The small epsilon absorbs binary
	 * representation error (92.45 is stored as 92.4499...). */
	t = (long long)floor(v * 10 + 0.5 + 1e-9);
	if (t == 0)
		sign = "";
	if (t % 10 == 0)
		return xprintf("%s%lld", sign, t / 10);
	return xprintf("%s%lld.%lld", sign, t / 10, t % 10);
}
