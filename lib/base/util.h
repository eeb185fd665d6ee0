/* Small helpers shared by several parts of the core. */
#ifndef TCPTUNE_UTIL_H
#define TCPTUNE_UTIL_H

#include <stddef.h>

#include <jansson.h>

/* s[0..*len) with blanks trimmed at both ends: the new start, *len
 * updated. */
const char	*str_trim(const char *s, size_t *len);
/* [A-Za-z_][A-Za-z0-9_]*: a variable or register name. */
int		 str_is_identifier(const char *s);
/* The names in dir, sorted with strcmp, without those skip() refuses
 * (skip may be NULL). 0, or -1 with *cause "DIR: reason". Free the list
 * with names_free. */
int		 dir_list_sorted(const char *dir, int (*skip)(const char *),
		    char ***names, size_t *n, char **cause);
void		 names_free(char **names, size_t n);
/* Whether path is (following links) a directory; a regular file. */
int		 path_is_dir(const char *path);
int		 path_is_file(const char *path);
/* os.path.abspath(path): the working directory before a relative path,
 * then "." and ".." components and repeated slashes folded, links not
 * resolved. Allocated; NULL when the working directory is unknown. */
char		*path_absolute(const char *path);
/* Ansible's boolean() (module_utils/parsing/convert_bool.py): a text
 * lowered and stripped that is one of y yes on 1 true t, or n no off 0
 * false f; a value that is a JSON boolean, 1 or 0, or such a text. 1 with
 * *out set, or 0 when it is neither (strict boolean()'s TypeError). */
int		 ansible_bool_text(const char *s, int *out);
int		 ansible_bool_value(const json_t *v, int *out);
/* Seconds on the monotonic clock, for measuring how long something took
 * (not a time of day). */
double		 monotonic_seconds(void);

#endif
