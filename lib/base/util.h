/* Small helpers shared by several parts of the core. */
#ifndef TCPTUNE_UTIL_H
#define TCPTUNE_UTIL_H

#include <stddef.h>

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
/* Seconds on the monotonic clock, for measuring how long something took
 * (not a time of day). */
double		 monotonic_seconds(void);

#endif
