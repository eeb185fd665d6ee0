/* The path matrix as Prometheus series (text exposition format 0.0.4, for
 * node_exporter's textfile collector), all gauges:
 *
 *   tcptune_path_mbit{src_group,dst_group,phase,direction,streams}
 *			median receiver Mbit/s over the cell's pairs
 *   tcptune_path_min_mbit{...}	the slowest pair's
 *   tcptune_path_rtt_ms{...}	median of the pairs' mean smoothed RTT
 *   tcptune_path_retransmits{...}	sum over the pairs
 *   tcptune_path_pairs{src_group,dst_group}	pairs measured
 *   tcptune_path_last_run_timestamp_seconds
 *
 * phase is before or after, direction up (src sends) or down, streams
 * single or multi. A figure that was not measured has no sample. */
#include "report/matrix-prom.h"

#include <stdlib.h>

#include "base/strbuf.h"
#include "report/report-prom.h"

enum figure { FIG_MEDIAN, FIG_MIN, FIG_RTT, FIG_RETR };

static const struct {
	const char	*name;
	const char	*help;
} families[] = {
	{ "tcptune_path_mbit", "Median receiver Mbit/s of iperf3 runs over "
	  "the pairs from src_group to dst_group." },
	{ "tcptune_path_min_mbit", "Lowest receiver Mbit/s of iperf3 runs "
	  "over the pairs from src_group to dst_group." },
	{ "tcptune_path_rtt_ms", "Median of the pairs' mean smoothed RTT "
	  "(sender's, under load) in milliseconds." },
	{ "tcptune_path_retransmits", "Retransmits (sender's) summed over "
	  "the pairs." },
};

static const char *const phases[MATRIX_NPHASES] = { "before", "after" };

static void
sample(struct strbuf *sb, enum figure f, const char *labels,
    const struct matrix_stat *st)
{
	switch (f) {
	case FIG_MEDIAN:
		strbuf_addf(sb, "%s{%s} %.3f\n", families[f].name, labels,
		    st->mbps_median);
		break;
	case FIG_MIN:
		strbuf_addf(sb, "%s{%s} %.3f\n", families[f].name, labels,
		    st->mbps_min);
		break;
	case FIG_RTT:
		if (st->rtt_ms_median >= 0)
			strbuf_addf(sb, "%s{%s} %.3f\n", families[f].name,
			    labels, st->rtt_ms_median);
		break;
	case FIG_RETR:
		if (st->retransmits >= 0)
			strbuf_addf(sb, "%s{%s} %lld\n", families[f].name,
			    labels, st->retransmits);
		break;
	}
}

char *
matrix_prom(const struct matrix *m, double timestamp)
{
	struct strbuf	 sb, labels;
	char		*src, *dst;
	size_t		 i;
	int		 f, k, ph;

	strbuf_init(&sb);
	strbuf_init(&labels);
	for (f = FIG_MEDIAN; f <= FIG_RETR; f++) {
		strbuf_addf(&sb, "# HELP %s %s\n# TYPE %s gauge\n",
		    families[f].name, families[f].help, families[f].name);
		for (i = 0; i < m->ncells; i++) {
			const struct matrix_cell *c = &m->cells[i];

			src = prom_escape_label(m->groups->names[c->src]);
			dst = prom_escape_label(m->groups->names[c->dst]);
			for (k = 0; k < IPERF_NKINDS; k++) {
				for (ph = 0; ph < MATRIX_NPHASES; ph++) {
					if (c->run[k][ph].n == 0)
						continue;
					strbuf_reset(&labels);
					strbuf_addf(&labels, "src_group=\"%s\","
					    "dst_group=\"%s\",phase=\"%s\","
					    "direction=\"%s\",streams=\"%s\"",
					    src, dst, phases[ph],
					    iperf_kind_reverse(k) ? "down" :
					    "up", iperf_kind_multi(k) ?
					    "multi" : "single");
					sample(&sb, f, labels.buf,
					    &c->run[k][ph]);
				}
			}
			free(src);
			free(dst);
		}
	}
	strbuf_addstr(&sb, "# HELP tcptune_path_pairs Pairs measured from "
	    "src_group to dst_group.\n# TYPE tcptune_path_pairs gauge\n");
	for (i = 0; i < m->ncells; i++) {
		src = prom_escape_label(m->groups->names[m->cells[i].src]);
		dst = prom_escape_label(m->groups->names[m->cells[i].dst]);
		strbuf_addf(&sb, "tcptune_path_pairs{src_group=\"%s\","
		    "dst_group=\"%s\"} %zu\n", src, dst, m->cells[i].npairs);
		free(src);
		free(dst);
	}
	strbuf_addf(&sb, "# HELP tcptune_path_last_run_timestamp_seconds "
	    "When the last verification run finished, in seconds since the "
	    "epoch.\n# TYPE tcptune_path_last_run_timestamp_seconds gauge\n"
	    "tcptune_path_last_run_timestamp_seconds %.3f\n", timestamp);
	strbuf_release(&labels);
	return strbuf_detach(&sb, NULL);
}
