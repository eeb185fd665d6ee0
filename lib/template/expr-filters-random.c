/* Ansible's random filter (ansible/plugins/filter/core.py rand):
 * random(end, start=None, step=None, seed=None). An int end is
 * randrange(start or 0, end, step or 1); a list or a string is choice()
 * of an item or a character. With a seed it is Random(seed), the numbers
 * CPython's Mersenne Twister gives (base/pyrandom.c), so a seeded value
 * (`59 | random(seed=inventory_hostname)`, the usual cron minute) is what
 * Ansible renders; without one, SystemRandom. */
#include "template/expr-int.h"

#include "base/pyrandom.h"
#include "template/value.h"

/* Random(seed) of an int or a string seed, or SystemRandom. */
static int
seeded(struct expr_call *c, struct pyrandom *r)
{
	const json_t *seed = c->arg[2];

	if (seed == NULL || json_is_null(seed)) {
		if (pyrandom_system(r) != 0)
			return expr_error(c->ctx, "random: the kernel gives no "
			    "random bytes (getrandom)");
		return 0;
	}
	if (json_is_integer(seed))
		pyrandom_seed_int(r, json_integer_value(seed));
	else if (json_is_string(seed))
		pyrandom_seed_str(r, json_string_value(seed),
		    json_string_length(seed));
	else
		return expr_error(c->ctx, "random: a seed of %s is not "
		    "supported (an int or a string is)",
		    expr_type_name(seed));
	return 0;
}

/* An int argument whose falsy value (not given, none, 0) means def. */
static int
int_arg(struct expr_call *c, const json_t *a, const char *what,
    long long def, long long *out)
{
	if (a == NULL || !template_truthy(a)) {
		*out = def;
		return 0;
	}
	if (!json_is_integer(a))
		return expr_error(c->ctx, "random: %s must be an integer, got "
		    "%s", what, expr_type_name(a));
	*out = json_integer_value(a);
	return 0;
}

/* Python's a // b (floors, b != 0). */
static long long
floor_div(long long a, long long b)
{
	long long q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* randrange(start, stop, step), as Lib/random.py. */
static int
randrange(struct expr_call *c, struct pyrandom *r, long long stop,
    json_t **out)
{
	long long start, step, width, n;

	if (int_arg(c, c->arg[0], "start", 0, &start) != 0 ||
	    int_arg(c, c->arg[1], "step", 1, &step) != 0)
		return -1;
	width = stop - start;
	if (step == 1)
		n = width;
	else if (step > 0)
		n = floor_div(width + step - 1, step);
	else
		n = floor_div(width + step + 1, step);
	if (n <= 0)
		return expr_error(c->ctx, "random: empty range for "
		    "randrange() (%lld, %lld, %lld)", start, stop, step);
	*out = json_integer(start + step *
	    (long long)pyrandom_below(r, (uint64_t)n));
	return 0;
}

/* choice(seq) of a list or a string (its characters, as the list filter
 * makes them). */
static int
choice(struct expr_call *c, struct pyrandom *r, json_t **out)
{
	json_t	*items;
	size_t	 n;

	if ((c->arg[0] != NULL && template_truthy(c->arg[0])) ||
	    (c->arg[1] != NULL && template_truthy(c->arg[1])))
		return expr_error(c->ctx, "start and step can only be used "
		    "with integer values");
	if (expr_filter_list(c, &items) != 0)
		return -1;
	if ((n = json_array_size(items)) == 0) {
		json_decref(items);
		return expr_error(c->ctx, "random: cannot choose from an empty "
		    "sequence");
	}
	*out = json_incref(json_array_get(items,
	    (size_t)pyrandom_below(r, n)));
	json_decref(items);
	return 0;
}

int
expr_filter_random(struct expr_call *c, json_t **out)
{
	struct pyrandom	r;

	if (!json_is_integer(c->v) && !json_is_array(c->v) &&
	    !json_is_string(c->v))
		return expr_error(c->ctx, "random can only be used on sequences "
		    "and integers");
	if (seeded(c, &r) != 0)
		return -1;
	if (json_is_integer(c->v))
		return randrange(c, &r, json_integer_value(c->v), out);
	return choice(c, &r, out);
}
