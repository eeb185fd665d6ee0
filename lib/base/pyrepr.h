/* Python's repr() and str() of a JSON value, as Ansible prints values:
 * a list or mapping in template text ("{{ hosts }}" is "['a', 'b']"), a
 * loop's "(item=...)" label, ansible-inventory --graph --vars. */
#ifndef TCPTUNE_PYREPR_H
#define TCPTUNE_PYREPR_H

#include <jansson.h>

#include "base/strbuf.h"

/* repr() of a str: quoted with ' unless it holds ' and no ", escapes as
 * Python writes them. */
void	 py_repr_string(struct strbuf *sb, const char *s);
/* repr() of any value: None, True, 12, 0.1, 'x', [..], {'k': ..}. */
void	 py_repr(struct strbuf *sb, const json_t *v);
/* repr() of a float: the shortest text that reads back the same, ".0" on
 * whole numbers, exponents only outside [1e-4, 1e16). Allocated. */
char	*py_float_text(double d);
/* str(): a string as it is, anything else as repr(). Allocated. */
char	*py_str(const json_t *v);

#endif
