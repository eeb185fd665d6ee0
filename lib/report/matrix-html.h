/* The path matrix as one self-contained HTML page (inline SVG and CSS, no
 * script, no external asset): heatmaps before and after, a per-host bar
 * chart, the figures as a table. What it draws is in matrix-html.c and
 * docs/verify.md. */
#ifndef TCPTUNE_MATRIX_HTML_H
#define TCPTUNE_MATRIX_HTML_H

#include "report/matrix.h"

/* The page (allocated). when is shown as is (escaped), e.g. the run's end
 * time. In each heatmap, a measured group pair is one
 * <g class="cell" data-src data-dst data-phase> element. */
char	*matrix_html(const struct matrix *m, const char *when);
/* s with & < > " ' as entities and control characters as '?'
 * (allocated): for text and attribute values alike. */
char	*matrix_html_escape(const char *s);

#endif
