/* Ansible's version test (ansible/plugins/test/core.py version_compare)
 * and the three orders it compares versions in, each as its Python class
 * does it:
 *   loose     LooseVersion (ansible/module_utils/compat/version.py): runs
 *             of digits (numbers), of a-z (strings) and of anything else
 *             but '.' (strings), compared as Python compares their lists;
 *             a number against a string is Python's TypeError
 *   strict    StrictVersion: N.N[.N][{a|b}N], else invalid
 *   semver    SemanticVersion (ansible/utils/version.py): semver 2.0.0
 * Numbers are compared as digit strings, so any length is exact, as
 * Python's ints are. */
#include "template/expr-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

/* A component of a version: a number (its digits) or a string. */
struct vpart {
	const char	*s;
	size_t		 len;
	int		 num;
};

struct vparts {
	struct vpart	*v;
	size_t		 n;
};

static void
vparts_add(struct vparts *p, const char *s, size_t len, int num)
{
	p->v = xreallocarray(p->v, p->n + 1, sizeof *p->v);
	p->v[p->n].s = s;
	p->v[p->n].len = len;
	p->v[p->n].num = num;
	p->n++;
}

/* Two digit strings as numbers: <0, 0, >0. */
static int
digits_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c;

	while (alen > 1 && *a == '0') {
		a++;
		alen--;
	}
	while (blen > 1 && *b == '0') {
		b++;
		blen--;
	}
	if (alen != blen)
		return alen < blen ? -1 : 1;
	c = memcmp(a, b, alen);
	return (c > 0) - (c < 0);
}

/* Two strings as Python compares str (code points: UTF-8's byte order). */
static int
text_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0)
		return (c > 0) - (c < 0);
	return (alen > blen) - (alen < blen);
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

/* LooseVersion.parse: component_re.split, empty parts and '.' left out. */
static void
loose_parse(const char *s, struct vparts *p)
{
	const char *e;

	while (*s != '\0') {
		e = s;
		if (is_digit(*s)) {
			while (is_digit(*e))
				e++;
		} else if (is_lower(*s)) {
			while (is_lower(*e))
				e++;
		} else if (*s == '.')
			e++;
		else {
			while (*e != '\0' && !is_digit(*e) && !is_lower(*e) &&
			    *e != '.')
				e++;
		}
		if (*s != '.')
			vparts_add(p, s, (size_t)(e - s), is_digit(*s));
		s = e;
	}
}

static int
loose_cmp(struct ectx *ctx, const char *a, const char *b, int *res)
{
	struct vparts	pa = { NULL, 0 }, pb = { NULL, 0 };
	size_t		i;
	int		r = 0;

	loose_parse(a, &pa);
	loose_parse(b, &pb);
	*res = 0;
	for (i = 0; i < pa.n && i < pb.n && *res == 0; i++) {
		if (pa.v[i].num != pb.v[i].num) {
			/* Python's list ==, then <: unequal, and no order */
			r = expr_error(ctx, "Version comparison failed: '<' not "
			    "supported between instances of '%s' and '%s'",
			    pa.v[i].num ? "int" : "str",
			    pb.v[i].num ? "int" : "str");
			break;
		}
		*res = pa.v[i].num ? digits_cmp(pa.v[i].s, pa.v[i].len,
		    pb.v[i].s, pb.v[i].len) : text_cmp(pa.v[i].s, pa.v[i].len,
		    pb.v[i].s, pb.v[i].len);
	}
	if (r == 0 && *res == 0)
		*res = (pa.n > pb.n) - (pa.n < pb.n);
	free(pa.v);
	free(pb.v);
	return r;
}

/* A run of digits at *s: its length, s moved past it. */
static size_t
digits(const char **s)
{
	const char *p = *s;

	while (is_digit(*p))
		p++;
	return (size_t)(p - *s);
}

/* StrictVersion: version_re, `$` allowing one final newline. The three
 * numbers (a missing patch is "0") and the pre-release (letter 0: none). */
struct strict {
	const char	*num[4];
	size_t		 len[4];	/* [3]: the pre-release number */
	char		 pre;
};

static int
strict_parse(const char *s, struct strict *v)
{
	const char	*p = s;
	int		 i;

	memset(v, 0, sizeof *v);
	for (i = 0; i < 3; i++) {
		if (i > 0) {
			if (*p != '.')
				break;
			p++;
		}
		v->num[i] = p;
		if ((v->len[i] = digits(&p)) == 0)
			return -1;
		p += v->len[i];
	}
	if (i < 2)
		return -1;
	if (i == 2) {
		v->num[2] = "0";
		v->len[2] = 1;
	}
	if (*p == 'a' || *p == 'b') {
		v->pre = *p++;
		v->num[3] = p;
		if ((v->len[3] = digits(&p)) == 0)
			return -1;
		p += v->len[3];
	}
	return *p == '\0' || (p[0] == '\n' && p[1] == '\0') ? 0 : -1;
}

static int
strict_cmp(struct ectx *ctx, const char *a, const char *b, int *res)
{
	struct strict	va, vb;
	int		i;

	if (strict_parse(a, &va) != 0 || strict_parse(b, &vb) != 0)
		return expr_error(ctx, "Version comparison failed: invalid "
		    "version number '%s'", strict_parse(a, &va) != 0 ? a : b);
	for (i = 0; i < 3; i++) {
		if ((*res = digits_cmp(va.num[i], va.len[i], vb.num[i],
		    vb.len[i])) != 0)
			return 0;
	}
	/* a pre-release comes before its release */
	if (va.pre == 0 || vb.pre == 0)
		*res = (va.pre == 0) - (vb.pre == 0);
	else if (va.pre != vb.pre)
		*res = va.pre < vb.pre ? -1 : 1;
	else
		*res = digits_cmp(va.num[3], va.len[3], vb.num[3], vb.len[3]);
	return 0;
}

/* SemanticVersion: SEMVER_RE. The core's three numbers and the
 * pre-release's identifiers (the build metadata does not order). */
struct semver {
	const char	*num[3];
	size_t		 len[3];
	struct vparts	 pre;
};

static int
ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* An identifier of a pre-release (pre) or of build metadata: a number
 * (no leading zero in a pre-release) or any run of [0-9A-Za-z-]. */
static size_t
semver_ident(const char *p, int pre, int *num)
{
	size_t n = 0, d;

	while (ident_char(p[n]))
		n++;
	d = strspn(p, "0123456789");
	*num = n > 0 && d == n;
	if (n == 0 || (pre && *num && n > 1 && p[0] == '0'))
		return 0;
	return n;
}

static int
semver_parse(const char *s, struct semver *v)
{
	const char	*p = s;
	size_t		 n;
	int		 i, num, pre;

	memset(v, 0, sizeof *v);
	for (i = 0; i < 3; i++) {
		if (i > 0 && *p++ != '.')
			return -1;
		v->num[i] = p;
		v->len[i] = digits(&p);
		if (v->len[i] == 0 || (v->len[i] > 1 && *p == '0'))
			return -1;
		p += v->len[i];
	}
	for (pre = 1; pre >= 0; pre--) {
		if (*p != (pre ? '-' : '+'))
			continue;
		do {
			p++;
			if ((n = semver_ident(p, pre, &num)) == 0)
				return -1;
			if (pre)
				vparts_add(&v->pre, p, n, num);
			p += n;
		} while (*p == '.');
	}
	return *p == '\0' || (p[0] == '\n' && p[1] == '\0') ? 0 : -1;
}

static int
semver_cmp(struct ectx *ctx, const char *a, const char *b, int *res)
{
	struct semver	 va, vb;
	const char	*bad = NULL;
	size_t		 i;
	int		 c;

	memset(&vb, 0, sizeof vb);
	if (semver_parse(a, &va) != 0)
		bad = a;
	else if (semver_parse(b, &vb) != 0)
		bad = b;
	if (bad != NULL) {
		free(va.pre.v);
		if (bad == b)
			free(vb.pre.v);
		return expr_error(ctx, "Version comparison failed: invalid "
		    "semantic version '%s'", bad);
	}
	*res = 0;
	for (i = 0; i < 3 && *res == 0; i++)
		*res = digits_cmp(va.num[i], va.len[i], vb.num[i], vb.len[i]);
	if (*res == 0 && (va.pre.n == 0 || vb.pre.n == 0))
		*res = (va.pre.n == 0) - (vb.pre.n == 0);
	for (i = 0; *res == 0 && i < va.pre.n && i < vb.pre.n; i++) {
		const struct vpart *x = &va.pre.v[i], *y = &vb.pre.v[i];

		/* a number comes before a string */
		if (x->num != y->num)
			c = x->num ? -1 : 1;
		else if (x->num)
			c = digits_cmp(x->s, x->len, y->s, y->len);
		else
			c = text_cmp(x->s, x->len, y->s, y->len);
		*res = c;
	}
	if (*res == 0)
		*res = (va.pre.n > vb.pre.n) - (va.pre.n < vb.pre.n);
	free(va.pre.v);
	free(vb.pre.v);
	return 0;
}

/* The operators, each with the signs of a comparison it holds for. */
static const struct {
	const char	*name;
	int		 lt, eq, gt;
} operators[] = {
	{ "==", 0, 1, 0 }, { "=", 0, 1, 0 }, { "eq", 0, 1, 0 },
	{ "<", 1, 0, 0 }, { "lt", 1, 0, 0 },
	{ "<=", 1, 1, 0 }, { "le", 1, 1, 0 },
	{ ">", 0, 0, 1 }, { "gt", 0, 0, 1 },
	{ ">=", 0, 1, 1 }, { "ge", 0, 1, 1 },
	{ "!=", 1, 0, 1 }, { "<>", 1, 0, 1 }, { "ne", 1, 0, 1 },
};

static const struct {
	const char	*name;
	int		(*cmp)(struct ectx *, const char *, const char *,
			    int *);
} types[] = {
	{ "loose", loose_cmp },
	{ "strict", strict_cmp },
	{ "semver", semver_cmp },
	{ "semantic", semver_cmp },
};

/* version(version, operator='eq', strict=none, version_type=none) */
int
expr_test_version(struct expr_call *c)
{
	json_t		*strict = c->arg[2], *type = c->arg[3];
	const char	*op = "eq", *tname;
	char		*a, *b;
	size_t		 i, o;
	int		(*cmp)(struct ectx *, const char *, const char *,
			    int *) = loose_cmp;
	int		 res, r;

	if (strict != NULL && !json_is_null(strict) && type != NULL &&
	    !json_is_null(type))
		return expr_error(c->ctx, "Cannot specify both 'strict' and "
		    "'version_type'");
	if (!template_truthy(c->v))
		return expr_error(c->ctx, "Input version value cannot be "
		    "empty");
	if (!template_truthy(c->arg[0]))
		return expr_error(c->ctx, "Version parameter to compare "
		    "against cannot be empty");
	if (strict != NULL && template_truthy(strict))
		cmp = strict_cmp;
	else if (type != NULL && template_truthy(type)) {
		tname = json_string_value(type);
		for (i = 0; i < sizeof types / sizeof types[0]; i++) {
			if (tname != NULL && strcmp(types[i].name, tname) == 0)
				break;
		}
		if (i == sizeof types / sizeof types[0])
			return expr_error(c->ctx, "Invalid version type (%s). "
			    "Must be one of 'loose', 'strict', 'semver', "
			    "'semantic' ('pep440' is not supported)",
			    tname != NULL ? tname : expr_type_name(type));
		cmp = types[i].cmp;
	}
	if (c->arg[1] != NULL)
		op = json_is_string(c->arg[1]) ? json_string_value(c->arg[1]) :
		    "";
	for (o = 0; o < sizeof operators / sizeof operators[0]; o++) {
		if (strcmp(operators[o].name, op) == 0)
			break;
	}
	if (o == sizeof operators / sizeof operators[0])
		return expr_error(c->ctx, "Invalid operator type (%s). Must be "
		    "one of '==', '=', 'eq', '<', 'lt', '<=', 'le', '>', 'gt', "
		    "'>=', 'ge', '!=', '<>', 'ne'", op);
	a = template_to_text(c->v);
	b = template_to_text(c->arg[0]);
	r = cmp(c->ctx, a, b, &res);
	free(a);
	free(b);
	if (r != 0)
		return -1;
	return res < 0 ? operators[o].lt : res == 0 ? operators[o].eq :
	    operators[o].gt;
}
