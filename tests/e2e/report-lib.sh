# shellcheck shell=bash
# report-lib.sh - the HTML path-matrix report (--report) in headless
# Chromium, for the e2e tests that write one (verify-matrix,
# fleet-regions). Source after lib.sh:
#
#   report_check REPORT NAME CELLS
#       copies REPORT beside the tcptune binary as e2e-NAME.html, loads it
#       in Chromium twice (DOM dump into $E2E_TMP/dom.html, screenshot kept
#       beside the binary as e2e-NAME.png); asserts both ran, that no
#       console message was logged (a blocked load or a script error prints
#       one) and that each heatmap (before, after) has CELLS SVG cells.
#
#   report_needs   sets CHROMIUM (chromium or chromium-browser), or the
#                  test fails: scripts/setup.sh installs it

report_needs() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser) || {
		echo "$E2E_NAME: FAIL: no chromium (scripts/setup.sh installs it)"
		exit 1
	}
}

report_check() {
	local report=$1 name=$2 cells=$3 shot phase
	shot=$(dirname "$TCPTUNE")/e2e-$name.png
	cp "$report" "$(dirname "$TCPTUNE")/e2e-$name.html" 2>/dev/null
	report_chrome "$report" --dump-dom >"$E2E_TMP/dom.html" \
	    2>"$E2E_TMP/chrome-dom.err"
	assert_eq "chromium dumped the DOM" 0 $? || true
	report_chrome "$report" --screenshot="$shot" >/dev/null \
	    2>"$E2E_TMP/chrome-shot.err"
	assert_eq "chromium took a screenshot" 0 $? || true
	assert_eq "no console message while loading" "" \
	    "$(grep -h ':CONSOLE' "$E2E_TMP"/chrome-*.err)" || true
	for phase in before after; do
		assert_eq "heatmap $phase: one cell per measured group pair" \
		    "$cells" "$(grep -o "<g class=\"cell\" data-src=\"[a-z_]*\" data-dst=\"[a-z_]*\" data-phase=\"$phase\"" \
		    "$E2E_TMP/dom.html" | wc -l)" || true
	done
	if [[ -s $shot ]]; then
		e2e_ok "screenshot: $shot ($(stat -c %s "$shot") bytes)"
	else
		e2e_fail "no screenshot at $shot"
	fi
}

# report_chrome REPORT ARGS...: headless Chromium on REPORT, console
# messages logged on stderr as INFO:CONSOLE.
report_chrome() {
	local report=$1
	shift
	timeout -k 5 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$E2E_TMP/chromium" --enable-logging=stderr --v=0 \
	    --window-size=1200,900 "$@" "file://$report"
}
