/* The process's parsed known_hosts files: each read once per run, shared by
 * every session's thread, read again only when the file changed (another
 * process, or accept-new, appended to it). */
#include "net/knownhosts.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

struct kh_slot {
	char		*path;
	struct kh_file	*f;
	struct stat	 st;		/* what f was read from */
	int		 refs;		/* holders, the cache included */
	int		 current;	/* 0: replaced, freed at refs 0 */
	struct kh_slot	*next;
};

static pthread_mutex_t	 cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kh_slot	*cache;

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_size == b->st_size &&
	    a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* The whole file, and the stat it was read with (fstat of the open file,
 * so the two agree). A missing file reads as empty. */
static int
read_whole(const char *path, struct strbuf *sb, struct stat *st, char **cause)
{
	char buf[65536];
	ssize_t n;
	int fd;

	memset(st, 0, sizeof *st);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return fail(cause, "cannot read known hosts file '%s': %s",
		    path, strerror(errno));
	}
	if (fstat(fd, st) != 0) {
		close(fd);
		return fail(cause, "cannot read known hosts file '%s': %s",
		    path, strerror(errno));
	}
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			close(fd);
			return fail(cause, "cannot read known hosts file "
			    "'%s': %s", path, strerror(errno));
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

static void
slot_unref(struct kh_slot *s)
{
	struct kh_slot **pp;

	if (--s->refs > 0)
		return;
	for (pp = &cache; *pp != s; pp = &(*pp)->next)
		/* nothing */;
	*pp = s->next;
	kh_file_free(s->f);
	free(s->path);
	free(s);
}

struct kh_file *
kh_cache_get(const char *path, char **cause)
{
	struct kh_slot *s, *cur = NULL;
	struct kh_file *f = NULL;
	struct strbuf sb;
	struct stat st;
	int missing;

	strbuf_init(&sb);
	pthread_mutex_lock(&cache_lock);
	for (s = cache; s != NULL; s = s->next)
		if (s->current && strcmp(s->path, path) == 0)
			cur = s;
	/* One stat a session, not one read. */
	missing = stat(path, &st) != 0;
	if (missing)
		memset(&st, 0, sizeof st);
	if (cur != NULL && same_file(&cur->st, &st)) {
		cur->refs++;
		f = cur->f;
		goto out;
	}
	if (read_whole(path, &sb, &st, cause) != 0)
		goto out;
	if (cur != NULL) {
		cur->current = 0;
		slot_unref(cur);
	}
	s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->f = kh_parse(path, sb.buf, sb.len);
	s->st = st;
	s->refs = 2;			/* the cache's and the caller's */
	s->current = 1;
	s->next = cache;
	cache = s;
	f = s->f;
out:
	pthread_mutex_unlock(&cache_lock);
	strbuf_release(&sb);
	return f;
}

void
kh_cache_release(struct kh_file *f)
{
	struct kh_slot *s;

	if (f == NULL)
		return;
	pthread_mutex_lock(&cache_lock);
	for (s = cache; s != NULL && s->f != f; s = s->next)
		/* nothing */;
	if (s != NULL)
		slot_unref(s);
	pthread_mutex_unlock(&cache_lock);
}

int
kh_cache_append(const char *path, const char *line, char **cause)
{
	char *dir, *slash;
	FILE *fp;
	int r = -1;

	pthread_mutex_lock(&cache_lock);
	if ((fp = fopen(path, "a")) == NULL && errno == ENOENT &&
	    (slash = strrchr(path, '/')) != NULL && slash != path) {
		dir = xstrndup(path, (size_t)(slash - path));
		if (mkdir(dir, 0700) == 0)
			fp = fopen(path, "a");
		free(dir);
	}
	if (fp == NULL) {
		fail(cause, "cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	if (fputs(line, fp) == EOF || fclose(fp) != 0) {
		fail(cause, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	r = 0;
out:
	pthread_mutex_unlock(&cache_lock);
	return r;
}

static const char *
home_dir(void)
{
	struct passwd *pw;
	const char *home;

	/* libssh's order: the password database, then $HOME. */
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_dir != NULL)
		return pw->pw_dir;
	home = getenv("HOME");
	return home != NULL ? home : "";
}

static const char *
local_user(void)
{
	struct passwd *pw;

	pw = getpwuid(getuid());
	return pw != NULL ? pw->pw_name : "";
}

char *
kh_expand_path(const char *raw, const char *host, const char *ruser,
    unsigned int port, char **cause)
{
	struct strbuf sb;
	const char *p = raw;

	strbuf_init(&sb);
	if (p[0] == '~' && (p[1] == '/' || p[1] == '\0')) {
		strbuf_addstr(&sb, home_dir());
		p++;
	}
	for (; *p != '\0'; p++) {
		if (*p != '%') {
			strbuf_addch(&sb, *p);
			continue;
		}
		switch (*++p) {
		case 'd':
			strbuf_addf(&sb, "%s/.ssh", home_dir());
			break;
		case 'u':
			strbuf_addstr(&sb, local_user());
			break;
		case 'h':
			strbuf_addstr(&sb, host != NULL ? host : "");
			break;
		case 'r':
			strbuf_addstr(&sb, ruser != NULL ? ruser : local_user());
			break;
		case 'p':
			strbuf_addf(&sb, "%u", port != 0 ? port : 22);
			break;
		case '%':
			strbuf_addch(&sb, '%');
			break;
		default:
			fail(cause, "known hosts path '%s': unsupported escape "
			    "'%%%c'", raw, *p != '\0' ? *p : ' ');
			strbuf_release(&sb);
			return NULL;
		}
	}
	return strbuf_detach(&sb, NULL);
}
