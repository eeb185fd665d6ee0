/* How Jinja sees a JSON value: its truth and its text. The expression
 * language (expr.h) and the templates (template.h) both use these, so they
 * sit below both. */
#ifndef TCPTUNE_TEMPLATE_VALUE_H
#define TCPTUNE_TEMPLATE_VALUE_H

#include <jansson.h>

/* Jinja truthiness of a value: none, false, 0, 0.0, "", [] and {} are
 * false. */
int	 template_truthy(const json_t *v);
/* Python's str() of a value as Jinja prints it: strings as they are, 1.0,
 * True/False/None, lists and mappings as Python's repr() writes them
 * (['a', 1, True, None], {'k': 'v'}; base/pyrepr.h). Allocated. */
char	*template_to_text(const json_t *v);

#endif
