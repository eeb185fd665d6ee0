/* The host's boot-time sysctl files, as the probe read them (facts'
 * "sysctl_files"), seen from a task that writes one of them: which of the
 * keys it writes another file sets and wins at the next boot. Shared by
 * ansible.posix.sysctl and the file modules (template, copy, lineinfile,
 * blockinfile), so that a role writing sysctls through a template gets the
 * same warning a sysctl task gets (issue 23: the sysctl story keeps its
 * edge). */
#ifndef TCPTUNE_SYSCTL_FILES_H
#define TCPTUNE_SYSCTL_FILES_H

#include <jansson.h>

struct module_ctx;
struct stage;
struct strbuf;

/* The "key = value" lines of a sysctl file's text as a stage of file
 * (borrowed: st->file points at it): blank lines, comments ('#', ';') and
 * lines without '=' are skipped, a leading '-' is dropped, keys are
 * normalised (sysctld_key_normalise). dropin_free(&st->dropin) after. */
void	 sysctl_files_stage(const char *file, const char *text,
	    struct stage *st);
/* Whether sysctl.d file path is a link to file (Debian's 99-sysctl.conf ->
 * ../sysctl.conf), by its link target in the facts. */
int	 sysctl_files_links_to(const json_t *facts, const char *path,
	    const char *file);
/* The file other than path (or a link to it) that wins key at boot once
 * path holds st's keys, or NULL. New string. */
char	*sysctl_files_winner(const json_t *facts, const struct stage *st,
	    const char *path, const char *key);
/* For a task that leaves text at path: when path is a boot sysctl file
 * (sysctld_config_path) and the facts list the host's files, the keys of
 * text another file wins at boot, as [{"key", "overridden_by"}]; NULL when
 * none (or not a sysctl file, or no facts). */
json_t	*sysctl_files_overrides(const json_t *facts, const char *path,
	    const char *text);
/* tcptune drift on a task that leaves text at path, a boot sysctl file:
 * the host read as the apply's check reads it (one more round trip,
 * read-only: the file and each key's live value), and what differs as
 * drift items (tune_drift_add): the file missing or not the task's text,
 * a key another file wins at boot, a key whose live value is not the
 * text's (changed at runtime, or never loaded). A new array, empty when
 * in sync; NULL when path is not a boot sysctl file, or with *cause when
 * the read failed. */
json_t	*sysctl_files_drift(struct module_ctx *ctx, const char *path,
	    const char *text, char **cause);
/* "; warning: 'F' also sets K and wins at boot" for each of overrides,
 * the wording of the sysctl modules' task line. */
void	 sysctl_files_warn(struct strbuf *sb, const json_t *overrides);

#endif
