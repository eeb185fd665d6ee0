/* Unified diffs of small text files (drop-ins, sysctl.d files), for
 * --check --diff. The output is what `diff -u --label OLD --label NEW` prints
 * for the same texts. */
#ifndef TCPTUNE_UDIFF_H
#define TCPTUNE_UDIFF_H

/* A pair whose shortest edit script needs D changed lines keeps a trace of
 * (D + 1)^2 positions; beyond this many (D above ~2900 lines) the differing
 * middle is shown as one hunk that replaces it all instead. Still a correct
 * diff, just not the shortest. */
#define UDIFF_MAX_CELLS	(8u * 1024 * 1024)

/* Return the unified diff from old_text to new_text as a new string: "---"
 * and "+++" header lines with the labels, then "@@ -a,b +c,d @@" hunks with
 * context lines of context on each side (a negative context means 3). An
 * empty string if the texts are equal. old_text NULL means the file does not
 * exist: its label becomes /dev/null and the hunk "@@ -0,0 +1,N @@"; the
 * same for new_text NULL (a removed file). A last line without a newline is
 * followed by "\ No newline at end of file". A label may be NULL only when
 * its text is NULL. */
char	*udiff(const char *old_text, const char *new_text,
	    const char *old_label, const char *new_label, int context);

#endif
