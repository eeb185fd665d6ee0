/* Replacing a file atomically: readers (a node_exporter collector, a
 * browser, a ticket's attachment upload) see the old file or the new one,
 * never half of one. */
#ifndef TCPTUNE_ATOMICFILE_H
#define TCPTUNE_ATOMICFILE_H

#include <stddef.h>
#include <sys/types.h>

/* Write data[0..len) to a temporary ".NAME.XXXXXX" in path's directory
 * (a leading dot, so a collector reading *.prom skips it), set mode, fsync,
 * rename it over path, fsync the directory. 0, or -1 and *cause naming the
 * file; the temporary file is then removed and path is untouched. */
int	file_replace_atomic(const char *path, const char *data, size_t len,
	    mode_t mode, char **cause);

/* 0 if a file could be created beside path (its directory exists and is
 * writable), else -1 and *cause: checked before a run, so that a report
 * the run cannot write is an error before any host is contacted. */
int	file_dir_writable(const char *path, char **cause);

#endif
