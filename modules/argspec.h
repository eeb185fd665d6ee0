/* A role's argument spec checked as ansible-core 2.14's
 * validate_argument_spec action checks it (ArgumentSpecValidator with
 * validate_role_argument_spec): each option's value is the role's param,
 * else the variable of that name; then, in Ansible's order, the required
 * options that have none, each value's type, each value's choices. What
 * is checked of an option: required, type (str, int, float, bool, list,
 * dict, path, raw, and the default str), choices. Nested options,
 * elements and the cross-option rules (mutually_exclusive, required_if,
 * ...) are not checked (argspec_unchecked names them). */
#ifndef TCPTUNE_ARGSPEC_H
#define TCPTUNE_ARGSPEC_H

#include <jansson.h>

/* The error messages (a new array of strings, empty when it holds) of
 * checking values (option name -> value, the ones given) against spec
 * (option name -> its attributes); literals names the values that are
 * YAML text as written (Ansible's AnsibleUnicode, as its messages name
 * their type). */
json_t	*argspec_check(const json_t *spec, const json_t *values,
	    const json_t *literals);
/* The attributes of spec tcptune does not check, "option.attr" each (a
 * new array). */
json_t	*argspec_unchecked(const json_t *spec);

#endif
