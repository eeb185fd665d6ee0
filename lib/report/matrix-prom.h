/* The path matrix as Prometheus series for node_exporter's textfile
 * collector; the series are listed in matrix-prom.c and docs/verify.md.
 * Written like drift's (base/atomicfile.h, mode 0644). */
#ifndef TCPTUNE_MATRIX_PROM_H
#define TCPTUNE_MATRIX_PROM_H

#include "report/matrix.h"

/* The file's text (allocated); timestamp in seconds since the epoch. */
char	*matrix_prom(const struct matrix *m, double timestamp);

#endif
