/* Atomic replacement of a file; see atomicfile.h. */
#include "base/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

/* path's directory and base name (allocated); -1 when path names a
 * directory ("dir/"). */
static int
split_path(const char *path, char **dir, char **base, char **cause)
{
	char *slash;

	*dir = xstrdup(path);
	if ((slash = strrchr(*dir, '/')) == NULL) {
		*base = *dir;
		*dir = xstrdup(".");
	} else {
		*base = xstrdup(slash + 1);
		if (slash == *dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (**base == '\0') {
		free(*dir);
		free(*base);
		*dir = *base = NULL;
		return fail(cause, "'%s' is a directory, not a file name",
		    path);
	}
	return 0;
}

int
file_dir_writable(const char *path, char **cause)
{
	char	*dir, *base;
	int	 r = 0;

	if (split_path(path, &dir, &base, cause) != 0)
		return -1;
	if (access(dir, W_OK | X_OK) != 0)
		r = fail(cause, "cannot write '%s': directory '%s': %s", path,
		    dir, strerror(errno));
	free(dir);
	free(base);
	return r;
}

int
file_replace_atomic(const char *path, const char *data, size_t len,
    mode_t mode, char **cause)
{
	char		*dir, *base, *tmp = NULL;
	size_t		 off = 0;
	ssize_t		 n;
	int		 fd = -1, dfd, r = -1;

	if (split_path(path, &dir, &base, cause) != 0)
		return -1;
	tmp = xprintf("%s/.%s.XXXXXX", dir, base);
	if ((fd = mkostemp(tmp, O_CLOEXEC)) == -1) {
		fail(cause, "cannot create a temporary file in '%s': %s", dir,
		    strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	/* mkostemp makes it 0600; a collector or web server runs as
	 * another user */
	if (fchmod(fd, mode) != 0) {
		fail(cause, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	while (off < len) {
		if ((n = write(fd, data + off, len - off)) < 0) {
			if (errno == EINTR)
				continue;
			fail(cause, "cannot write '%s': %s", tmp,
			    strerror(errno));
			goto out;
		}
		off += (size_t)n;
	}
	if (fsync(fd) != 0) {
		fail(cause, "cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd) != 0) {
		fd = -1;
		fail(cause, "cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		fail(cause, "cannot rename '%s' to '%s': %s", tmp, path,
		    strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	/* make the rename itself durable; losing it is not an error */
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	r = 0;
out:
	if (fd != -1)
		close(fd);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	free(base);
	free(dir);
	return r;
}
