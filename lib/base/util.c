#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/xalloc.h"

const char *
str_trim(const char *s, size_t *len)
{
	size_t n = *len;

	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return s;
}

int
str_is_identifier(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s != '\0'; s++) {
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	}
	return 1;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
dir_list_sorted(const char *dir, int (*skip)(const char *), char ***names,
    size_t *n, char **cause)
{
	struct dirent	*de;
	DIR		*d;

	*names = NULL;
	*n = 0;
	if ((d = opendir(dir)) == NULL)
		return fail(cause, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    (skip != NULL && skip(de->d_name)))
			continue;
		*names = xreallocarray(*names, *n + 1, sizeof **names);
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(*names, *n, sizeof **names, cmp_names);
	return 0;
}

void
names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

double
monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
path_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int
ansible_bool_text(const char *s, int *out)
{
	static const char *const yes[] = { "y", "yes", "on", "1", "true", "t",
	    NULL };
	static const char *const no[] = { "n", "no", "off", "0", "false", "f",
	    NULL };
	size_t	len = strlen(s), i;

	s = str_trim(s, &len);
	for (i = 0; yes[i] != NULL; i++) {
		if (strlen(yes[i]) == len && strncasecmp(s, yes[i], len) == 0) {
			*out = 1;
			return 1;
		}
		if (strlen(no[i]) == len && strncasecmp(s, no[i], len) == 0) {
			*out = 0;
			return 1;
		}
	}
	return 0;
}

int
ansible_bool_value(const json_t *v, int *out)
{
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return 1;
	}
	if (json_is_number(v) && (json_number_value(v) == 1 ||
	    json_number_value(v) == 0)) {
		*out = json_number_value(v) == 1;
		return 1;
	}
	return json_is_string(v) && ansible_bool_text(json_string_value(v),
	    out);
}

char *
path_absolute(const char *path)
{
	char	 cwd[PATH_MAX], *joined, *out, *w, *save = NULL;
	size_t	 len = 0;

	if (path[0] == '/')
		joined = xstrdup(path);
	else if (getcwd(cwd, sizeof cwd) != NULL)
		joined = xprintf("%s/%s", cwd, path);
	else
		return NULL;
	out = xcalloc(1, strlen(joined) + 2);
	for (w = strtok_r(joined, "/", &save); w != NULL;
	    w = strtok_r(NULL, "/", &save)) {
		if (strcmp(w, ".") == 0)
			continue;
		if (strcmp(w, "..") == 0) {
			/* up one, never above the root */
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
			out[len] = '\0';
			continue;
		}
		out[len++] = '/';
		strcpy(out + len, w);
		len += strlen(w);
	}
	if (len == 0)
		strcpy(out, "/");
	free(joined);
	return out;
}
