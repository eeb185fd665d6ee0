/* Python 3's random.Random, as far as Ansible's random filter uses it:
 * seeded from an int or a string, Random(seed) gives the same numbers as
 * CPython's (the Mersenne Twister of Modules/_randommodule.c seeded by
 * init_by_array, a string by its UTF-8 bytes followed by their SHA-512,
 * as seed version 2); unseeded it is SystemRandom (getrandom(2)). So
 * `{{ 59 | random(seed=inventory_hostname) }}` renders what Ansible
 * renders for the host. */
#ifndef TCPTUNE_BASE_PYRANDOM_H
#define TCPTUNE_BASE_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

#define PYRANDOM_N	624

struct pyrandom {
	uint32_t	mt[PYRANDOM_N];
	int		index;
	int		system;		/* SystemRandom: the kernel's bytes */
};

/* Random(n): an int seed (its absolute value, as CPython). */
void		pyrandom_seed_int(struct pyrandom *r, int64_t n);
/* Random(s): a str seed of len bytes (UTF-8). */
void		pyrandom_seed_str(struct pyrandom *r, const char *s, size_t len);
/* SystemRandom(): 0, or -1 (errno) when the kernel has no getrandom. */
int		pyrandom_system(struct pyrandom *r);
/* getrandbits(k), 1 <= k <= 64. */
uint64_t	pyrandom_bits(struct pyrandom *r, unsigned k);
/* _randbelow(n): uniform in [0, n), n >= 1, as CPython draws it. */
uint64_t	pyrandom_below(struct pyrandom *r, uint64_t n);

#endif
