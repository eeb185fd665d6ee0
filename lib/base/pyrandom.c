/* Python 3's random.Random (CPython 3.11's Modules/_randommodule.c and
 * Lib/random.py): the Mersenne Twister MT19937, its init_by_array seeding,
 * getrandbits and _randbelow_with_getrandbits. */
#include "base/pyrandom.h"

#include <errno.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/xalloc.h"

#define MT_M		397
#define MATRIX_A	0x9908b0dfU
#define UPPER_MASK	0x80000000U
#define LOWER_MASK	0x7fffffffU

static void
init_genrand(struct pyrandom *r, uint32_t s)
{
	int i;

	r->mt[0] = s;
	for (i = 1; i < PYRANDOM_N; i++)
		r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) +
		    (uint32_t)i;
	r->index = PYRANDOM_N;
}

static void
init_by_array(struct pyrandom *r, const uint32_t *key, size_t len)
{
	uint32_t	*mt = r->mt;
	size_t		 i = 1, j = 0, k;

	init_genrand(r, 19650218U);
	for (k = PYRANDOM_N > len ? PYRANDOM_N : len; k > 0; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) *
		    1664525U)) + key[j] + (uint32_t)j;
		if (++i >= PYRANDOM_N) {
			mt[0] = mt[PYRANDOM_N - 1];
			i = 1;
		}
		if (++j >= len)
			j = 0;
	}
	for (k = PYRANDOM_N - 1; k > 0; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) *
		    1566083941U)) - (uint32_t)i;
		if (++i >= PYRANDOM_N) {
			mt[0] = mt[PYRANDOM_N - 1];
			i = 1;
		}
	}
	mt[0] = 0x80000000U;
	r->system = 0;
}

/* Seed from a non-negative integer given as big-endian bytes: CPython's
 * key is its 32-bit words from the least significant, as many as its bit
 * length needs (one for 0). */
static void
seed_be_bytes(struct pyrandom *r, const unsigned char *b, size_t len)
{
	uint32_t	*key;
	size_t		 n, i, byte;

	while (len > 0 && b[0] == 0) {	/* leading zeros add no word */
		b++;
		len--;
	}
	n = len == 0 ? 1 : (len + 3) / 4;
	key = xcalloc(n, sizeof *key);
	for (i = 0; i < len; i++) {
		byte = len - 1 - i;	/* i-th least significant byte */
		key[i / 4] |= (uint32_t)b[byte] << (8 * (i % 4));
	}
	init_by_array(r, key, n);
	free(key);
}

void
pyrandom_seed_int(struct pyrandom *r, int64_t n)
{
	uint64_t	u = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
	unsigned char	b[8];
	int		i;

	for (i = 7; i >= 0; i--, u >>= 8)
		b[i] = (unsigned char)(u & 0xff);
	seed_be_bytes(r, b, sizeof b);
}

void
pyrandom_seed_str(struct pyrandom *r, const char *s, size_t len)
{
	unsigned char	*b = xmalloc(len + SHA512_DIGEST_LENGTH);

	memcpy(b, s, len);
	SHA512((const unsigned char *)s, len, b + len);
	seed_be_bytes(r, b, len + SHA512_DIGEST_LENGTH);
	free(b);
}

int
pyrandom_system(struct pyrandom *r)
{
	unsigned char b;

	memset(r, 0, sizeof *r);
	r->system = 1;
	/* the call exists (Linux 3.17): later ones only wait for entropy */
	return getrandom(&b, 1, GRND_NONBLOCK) == 1 || errno == EAGAIN ||
	    errno == EINTR ? 0 : -1;
}

static uint32_t
genrand_uint32(struct pyrandom *r)
{
	static const uint32_t	 mag01[2] = { 0, MATRIX_A };
	uint32_t		*mt = r->mt, y;
	int			 kk;

	if (r->index >= PYRANDOM_N) {
		for (kk = 0; kk < PYRANDOM_N - MT_M; kk++) {
			y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
			mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
		}
		for (; kk < PYRANDOM_N - 1; kk++) {
			y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
			mt[kk] = mt[kk + (MT_M - PYRANDOM_N)] ^ (y >> 1) ^
			    mag01[y & 1];
		}
		y = (mt[PYRANDOM_N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
		mt[PYRANDOM_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
		r->index = 0;
	}
	y = mt[r->index++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680U;
	y ^= (y << 15) & 0xefc60000U;
	y ^= y >> 18;
	return y;
}

/* SystemRandom.getrandbits: int.from_bytes(urandom(ceil(k / 8))) >> the
 * surplus bits. */
static uint64_t
system_bits(unsigned k)
{
	unsigned char	b[8];
	size_t		n = (k + 7) / 8, i;
	ssize_t		got;
	uint64_t	v = 0;

	for (i = 0; i < n; i += (size_t)got) {
		got = getrandom(b + i, n - i, 0);
		if (got < 0)	/* EINTR: pyrandom_system saw the call work */
			got = 0;
	}
	for (i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v >> (n * 8 - k);
}

uint64_t
pyrandom_bits(struct pyrandom *r, unsigned k)
{
	uint64_t lo, hi;

	if (r->system)
		return system_bits(k);
	if (k <= 32)
		return genrand_uint32(r) >> (32 - k);
	/* words from the least significant; the last keeps its top bits */
	lo = genrand_uint32(r);
	hi = genrand_uint32(r) >> (64 - k);
	return hi << 32 | lo;
}

uint64_t
pyrandom_below(struct pyrandom *r, uint64_t n)
{
	unsigned	k = 0;
	uint64_t	v;

	for (v = n; v != 0; v >>= 1)	/* n.bit_length() */
		k++;
	do
		v = pyrandom_bits(r, k);
	while (v >= n);
	return v;
}
