/* A command task's result, as command.py's main() (see command-result.h). */
#include "modules/command-result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"

json_t *
command_splitlines(const char *s, size_t len)
{
	json_t	*list = json_array();
	size_t	 i, start = 0;

	for (i = 0; s != NULL && i < len; i++) {
		if (strchr("\n\r\v\f\x1c\x1d\x1e", s[i]) == NULL ||
		    s[i] == '\0')
			continue;
		json_array_append_new(list, json_stringn(s + start,
		    i - start));
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			i++;
		start = i + 1;
	}
	if (s != NULL && start < len)
		json_array_append_new(list, json_stringn(s + start,
		    len - start));
	return list;
}

/* len without the trailing \r and \n (Python's rstrip("\r\n")). */
static size_t
stripped(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	return len;
}

char *
command_time_text(double epoch)
{
	time_t		t = (time_t)floor(epoch);
	long		us = lround((epoch - floor(epoch)) * 1e6);
	struct tm	tm;
	char		buf[32];

	if (us >= 1000000) {
		t++;
		us -= 1000000;
	}
	localtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
	/* Python leaves the fraction out when it is 0 */
	return us != 0 ? xprintf("%s.%06ld", buf, us) : xstrdup(buf);
}

char *
command_delta_text(double seconds)
{
	long long	us = llround(seconds * 1e6), s;

	if (us < 0)
		us = 0;
	s = us / 1000000;
	us %= 1000000;
	if (us != 0)
		return xprintf("%lld:%02lld:%02lld.%06lld", s / 3600,
		    s / 60 % 60, s % 60, us);
	return xprintf("%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
}

static const char *
errno_text(int e)
{
	switch (e) {
	case 2: return "No such file or directory";
	case 20: return "Not a directory";
	default: return "Permission denied";
	}
}

/* The keys every outcome returns ("we promised these in 'always'"), and
 * the action's _lines of stdout and stderr. */
static json_t *
base(const struct command_outcome *o, const char *out, size_t out_len,
    const char *err, size_t err_len)
{
	json_t *d = json_object();

	json_object_set_new(d, "changed", json_false());
	json_object_set_new(d, "stdout", json_stringn(out, out_len));
	json_object_set_new(d, "stderr", json_stringn(err, err_len));
	json_object_set_new(d, "rc", json_null());
	json_object_set(d, "cmd", o->cmd != NULL ? (json_t *)o->cmd :
	    json_null());
	json_object_set_new(d, "start", json_null());
	json_object_set_new(d, "end", json_null());
	json_object_set_new(d, "delta", json_null());
	json_object_set_new(d, "msg", json_string(""));
	json_object_set_new(d, "stdout_lines", command_splitlines(out,
	    out_len));
	json_object_set_new(d, "stderr_lines", command_splitlines(err,
	    err_len));
	return d;
}

enum result_status
command_result(const struct command_outcome *o, json_t **data, char **msg)
{
	const char	*would = o->check ? "Would" : "Did";
	const char	*out = o->out != NULL ? o->out : "";
	const char	*err = o->err != NULL ? o->err : "";
	size_t		 ol = o->out_len, el = o->err_len;
	char		*text;
	json_t		*d;

	switch (o->said) {
	case COMMAND_CHDIR_FAILED:
		d = base(o, "", 0, "", 0);
		text = xprintf("Unable to change directory before execution: "
		    "[Errno %d] %s: b'%s'", o->err_no, errno_text(o->err_no),
		    o->chdir != NULL ? o->chdir : "");
		json_object_set_new(d, "msg", json_string(text));
		*data = d;
		*msg = text;
		return RESULT_FAILED;
	case COMMAND_SKIP_CREATES:
	case COMMAND_SKIP_REMOVES: {
		int	 cr = o->said == COMMAND_SKIP_CREATES;
		char	*so = xprintf("skipped, since %s %s", cr ? o->creates :
		    o->removes, cr ? "exists" : "does not exist");

		d = base(o, so, strlen(so), "", 0);
		free(so);
		text = xprintf("%s not run command since '%s' %s", would,
		    cr ? o->creates : o->removes, cr ? "exists" :
		    "does not exist");
		json_object_set_new(d, "rc", json_integer(0));
		json_object_set_new(d, "msg", json_string(text));
		*data = d;
		*msg = text;
		return RESULT_OK;
	}
	case COMMAND_RAN:
		break;
	}
	if (o->check) {
		int decides = (o->creates != NULL && o->creates[0] != '\0') ||
		    (o->removes != NULL && o->removes[0] != '\0');

		d = base(o, "", 0, "", 0);
		json_object_set_new(d, "rc", json_integer(0));
		json_object_set_new(d, "msg", json_string("Command would have "
		    "run if not in check mode"));
		if (decides)
			json_object_set_new(d, "changed", json_true());
		else
			json_object_set_new(d, "skipped", json_true());
		*data = d;
		*msg = xstrdup(decides ? "Command would have run if not in "
		    "check mode" : "Command would have run if not in check "
		    "mode (skipped: mark it safe: true if it only reads)");
		return decides ? RESULT_CHANGED : RESULT_SKIPPED;
	}
	if (o->strip) {
		ol = stripped(out, ol);
		el = stripped(err, el);
	}
	d = base(o, out, ol, err, el);
	json_object_set_new(d, "changed", json_true());
	json_object_set_new(d, "rc", json_integer(o->rc));
	json_object_set_new(d, "start", o->start != NULL ?
	    json_string(o->start) : json_null());
	json_object_set_new(d, "end", o->end != NULL ?
	    json_string(o->end) : json_null());
	json_object_set_new(d, "delta", o->delta != NULL ?
	    json_string(o->delta) : json_null());
	*data = d;
	if (o->rc != 0)
		json_object_set_new(d, "msg", json_string("non-zero return "
		    "code"));
	if (o->rc != o->expect_rc) {
		*msg = xprintf("exit %d (expected %d): %.200s", o->rc,
		    o->expect_rc, o->err_len > 0 ? err : out);
		return RESULT_FAILED;
	}
	*msg = xprintf("exit %d", o->rc);
	return RESULT_CHANGED;
}
