/* Byte sizes: parsing "16MiB"/"64M"/"1GB", and human formatting that does
 * not depend on the locale (always '.' decimals, integer arithmetic, halves
 * rounded up), so that rendered files and reasons are the same bytes on every
 * controller. */
#ifndef TCPTUNE_UNITS_H
#define TCPTUNE_UNITS_H

#include <stdint.h>

#define KiB	((uint64_t)1024)
#define MiB	(KiB * 1024)
#define GiB	(MiB * 1024)
#define TiB	(GiB * 1024)

/* Parse a byte size: a whole or decimal number, optional blanks, then an
 * optional unit. Units are case-sensitive: K M G T and KiB MiB GiB TiB are
 * powers of 1024; KB MB GB TB (and SI "kB") are powers of 1000; "B" or no
 * unit means bytes. A fraction must come out as a whole number of bytes
 * ("1.5K" is 1536, "0.1K" is an error). Returns 0, or -1 with *cause set on
 * junk, an unknown unit, an empty string, a sign, or overflow. */
int	 parse_size(const char *s, uint64_t *out, char **cause);

/* "16 MiB", "208 KiB", "512 B", "1.3 MiB": the largest binary unit not
 * above the value; exact multiples print without decimals, others with one
 * (halves rounded up). Returns a new string. */
char	*format_bytes_binary(uint64_t v);

/* "11.3 MB", "6.6 MB", "999 B", "1 GB": the same with units of 1000 (B kB MB
 * GB TB PB EB). Returns a new string. */
char	*format_bytes_decimal(uint64_t v);

/* A non-negative number with at most one decimal, the decimal dropped when
 * it is zero: 92 -> "92", 92.44 -> "92.4", 0.05 -> "0.1". Negative numbers
 * keep their sign. Returns a new string. */
char	*format_tenths(double v);

#endif
