export const id = 300;
export const ids = [300];
export const modules = {

/***/ 9373:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   m: () => (/* binding */ systemClock)
/* harmony export */ });
const systemClock = {
    now: () => Date.now(),
    random: () => Math.random(),
    sleep: (ms, signal) => new Promise((resolve) => {
        if (signal?.aborted)
            return resolve();
        const onAbort = () => {
            clearTimeout(timer);
            resolve();
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
    }),
};


/***/ }),

/***/ 7607:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ formatElapsed),
/* harmony export */   E: () => (/* binding */ parseDuration)
/* harmony export */ });
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** Parses `500ms`, `10s`, `2m`, `1h` or a plain number of seconds into milliseconds; undefined when malformed. */
function parseDuration(text) {
    const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text.trim());
    if (!match)
        return undefined;
    const ms = Number(match[1]) * UNIT_MS[match[2] ?? 's'];
    return Number.isFinite(ms) ? Math.round(ms) : undefined;
}
/** A short human form for log lines: `45s`, `3m 4s`, `1h 2m`. */
function formatElapsed(ms) {
    const totalSeconds = Math.max(0, Math.round(ms / 1000));
    const hours = Math.floor(totalSeconds / 3600);
    const minutes = Math.floor((totalSeconds % 3600) / 60);
    const seconds = totalSeconds % 60;
    if (hours > 0)
        return `${hours}h ${minutes}m`;
    if (minutes > 0)
        return `${minutes}m ${seconds}s`;
    return `${seconds}s`;
}


/***/ }),

/***/ 6236:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ shown),
/* harmony export */   d: () => (/* binding */ InputError)
/* harmony export */ });
/** An input that is missing or malformed; its message names the input and never a secret. */
class InputError extends Error {
    name = 'InputError';
}
/** Shows a value in an error message, shortened so a pasted blob cannot flood the log. */
function shown(value) {
    const short = value.length > 80 ? `${value.slice(0, 77)}...` : value;
    return `'${short}'`;
}


/***/ }),

/***/ 1300:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Su: () => (/* binding */ cancelRun),
  fO: () => (/* binding */ createDriver),
  run: () => (/* binding */ run)
});

// UNUSED EXPORTS: CANCEL_REQUEST_TIMEOUT_MS

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 18 modules
var core = __webpack_require__(9402);
// EXTERNAL MODULE: ./src/clock.ts
var src_clock = __webpack_require__(9373);
// EXTERNAL MODULE: ./src/outcome.ts
var src_outcome = __webpack_require__(4671);
;// CONCATENATED MODULE: ./src/conclude.ts

function durationOf(startedAt, finishedAt) {
    if (!startedAt || !finishedAt)
        return undefined;
    const ms = Date.parse(finishedAt) - Date.parse(startedAt);
    return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
function plural(count, noun) {
    return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
/** The outcome of a run that reached a final status, with the contract's step result. */
function finishedOutcome(identity, run) {
    const counts = (0,src_outcome/* countCases */.zp)(run.testCases);
    const failing = run.testCases.filter((testCase) => (0,src_outcome/* isFailing */.DI)(testCase, identity.failOnFlaky)).length;
    const kind = identity.mode === 'project' ? 'Project run' : 'Test suite run';
    let status;
    let success;
    if (identity.mode === 'project') {
        status = run.serviceStatus;
        success = status === 'PASSED' && failing === 0;
    }
    else {
        success = failing === 0;
        status = success ? 'PASSED' : 'FAILED';
    }
    let message;
    if (!success) {
        const flakyNote = identity.failOnFlaky && counts.flaky > 0
            ? ` (${plural(counts.flaky, 'flaky test case')} counted as failed: fail-on-flaky is true)`
            : '';
        const cases = `${failing} of ${plural(counts.total, 'test case')} failed${flakyNote}`;
        message =
            identity.mode === 'project' && status !== 'PASSED'
                ? `${kind} ${identity.runId} ended ${status}: ${cases}.`
                : `${kind} ${identity.runId}: ${cases}.`;
    }
    return {
        ...identity,
        testSuiteName: run.testSuiteName ?? identity.testSuiteName,
        branch: run.branch ?? identity.branch,
        status,
        success,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        durationMs: durationOf(run.startedAt, run.finishedAt),
        testCases: run.testCases,
        counts,
        message,
        notes: [],
    };
}
/** The outcome of a run whose result is unknown: timed out, cancelled, or the service failed. */
function unfinishedOutcome(identity, status, message, notes = []) {
    return {
        ...identity,
        status,
        success: false,
        testCases: [],
        counts: (0,src_outcome/* countCases */.zp)([]),
        message,
        notes,
    };
}
/** `wait: false`: the run is started and left alone. */
function startedOutcome(identity) {
    return { ...identity, status: 'STARTED', success: true, testCases: [], counts: (0,src_outcome/* countCases */.zp)([]), notes: [] };
}

// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/input-error.ts
var input_error = __webpack_require__(6236);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(6412);
;// CONCATENATED MODULE: ./src/report/labels.ts

/** The status of a test case in words: its raw status, or "did not finish (...)". */
function statusLabel(testCase) {
    if ((0,src_outcome/* verdictOf */.Vj)(testCase.status) === 'unfinished')
        return `did not finish (${testCase.status || 'no status'})`;
    return testCase.status;
}
function labels_plural(count, singular, pluralForm = `${singular}s`) {
    return `${count} ${count === 1 ? singular : pluralForm}`;
}
/** "12 test cases: 9 passed, 2 failed, 1 flaky, 0 skipped" */
function countsLine(counts) {
    const { total, passed, failed, flaky, skipped } = counts;
    return `${labels_plural(total, 'test case')}: ${passed} passed, ${failed} failed, ${flaky} flaky, ${skipped} skipped`;
}

;// CONCATENATED MODULE: ./src/report/annotations.ts




// GitHub shows ten errors per step, and the step's own failure message (core.setFailed) is one.
const MAX_ERRORS = 9;
const MAX_WARNINGS = 10;
function titleOf(title) {
    return (0,report_escape/* oneLine */.TN)(title, 200) || report_escape/* UNTITLED */.q8;
}
/**
 * One error per failing test case and one warning per flaky one (when flaky ones don't fail the
 * step), in report order, each kind capped with one notice for the rest.
 * `summary` says whether the job summary (which lists them all) is written.
 */
function annotate(outcome, summary) {
    if (outcome.status === 'STARTED')
        return;
    const where = summary ? 'the job summary lists them' : 'the results file lists them';
    const runId = outcome.runId === undefined ? '' : ` in run ${(0,report_escape/* oneLine */.TN)(outcome.runId, 100)}`;
    const failing = (0,src_outcome/* inReportOrder */.ET)(outcome.testCases.filter((testCase) => (0,src_outcome/* isFailing */.DI)(testCase, outcome.failOnFlaky)));
    for (const testCase of failing.slice(0, MAX_ERRORS)) {
        core/* error */.z3(`Test case ${(0,report_escape/* oneLine */.TN)(statusLabel(testCase), 60)}${runId}`, { title: titleOf(testCase.title) });
    }
    if (failing.length > MAX_ERRORS) {
        const more = failing.length - MAX_ERRORS;
        core/* notice */.lm(`${labels_plural(more, 'more test case')} failed; ${where}.`, {
            title: `${failing.length} test cases failed`,
        });
    }
    if (outcome.failOnFlaky)
        return;
    const flaky = outcome.testCases.filter((testCase) => (0,src_outcome/* verdictOf */.Vj)(testCase.status) === 'flaky');
    for (const testCase of flaky.slice(0, MAX_WARNINGS)) {
        core/* warning */.$e(`Test case is flaky${runId}`, { title: titleOf(testCase.title) });
    }
    if (flaky.length > MAX_WARNINGS) {
        const more = flaky.length - MAX_WARNINGS;
        core/* notice */.lm(`${labels_plural(more, 'more test case')} ${more === 1 ? 'is' : 'are'} flaky; ${where}.`, {
            title: `${flaky.length} test cases flaky`,
        });
    }
    if (outcome.status === 'PASSED' && outcome.counts.total === 0) {
        core/* warning */.$e('The run passed but reported no test case.');
    }
}

;// CONCATENATED MODULE: ./src/report/log.ts




const MAX_FAILED_LINES = 50;
/** The end of the log: the counts, the notes, and each failed test case. */
function logOutcome(outcome) {
    core/* info */.pq(countsLine(outcome.counts));
    for (const note of outcome.notes)
        core/* info */.pq((0,report_escape/* oneLine */.TN)(note));
    const failing = (0,src_outcome/* inReportOrder */.ET)(outcome.testCases.filter((testCase) => (0,src_outcome/* isFailing */.DI)(testCase, outcome.failOnFlaky)));
    for (const testCase of failing.slice(0, MAX_FAILED_LINES)) {
        core/* info */.pq(`  ✗ ${(0,report_escape/* oneLine */.TN)(statusLabel(testCase), 60)}  ${(0,report_escape/* oneLine */.TN)(testCase.title, 200) || report_escape/* UNTITLED */.q8}`);
    }
    if (failing.length > MAX_FAILED_LINES)
        core/* info */.pq(`  … and ${failing.length - MAX_FAILED_LINES} more`);
}

;// CONCATENATED MODULE: ./src/report/outputs.ts

/** Every output but `run-id` (set by the caller when the run starts) and the file paths. */
function setOutcomeOutputs(outcome) {
    core/* setOutput */.uH('status', outcome.status);
    core/* setOutput */.uH('success', String(outcome.success));
    if (outcome.status === 'STARTED')
        return;
    const { total, passed, failed, flaky, skipped } = outcome.counts;
    core/* setOutput */.uH('total', String(total));
    core/* setOutput */.uH('passed', String(passed));
    core/* setOutput */.uH('failed', String(failed));
    core/* setOutput */.uH('flaky', String(flaky));
    core/* setOutput */.uH('skipped', String(skipped));
    if (outcome.durationMs !== undefined)
        core/* setOutput */.uH('duration-ms', String(Math.round(outcome.durationMs)));
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(7194);
;// CONCATENATED MODULE: ./src/report/results-file.ts




const RESULTS_SCHEMA_VERSION = 1;
function resultsFileName(runId) {
    const safe = (runId ?? '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
    return `test-run-${safe || 'unknown'}.json`;
}
/** The results file's content: the normalised run and every test case, titles whole. */
function resultsJson(outcome) {
    // Every string that can come from the service or the inputs is redacted here rather than in a
    // JSON.stringify replacer, which would take stringify off its fast path. Undefined fields are left out.
    const text = (value) => (value === undefined ? undefined : (0,secrets/* redact */.E$)(value));
    const document = {
        schemaVersion: RESULTS_SCHEMA_VERSION,
        mode: outcome.mode,
        status: outcome.status,
        success: outcome.success,
        runId: text(outcome.runId),
        projectId: text(outcome.projectId),
        testSuiteId: text(outcome.testSuiteId),
        testSuiteName: text(outcome.testSuiteName),
        branch: text(outcome.branch),
        environment: text(outcome.environment),
        startedAt: text(outcome.startedAt),
        finishedAt: text(outcome.finishedAt),
        durationMs: outcome.durationMs,
        counts: outcome.counts,
        message: text(outcome.message),
        notes: outcome.notes.map(secrets/* redact */.E$),
        testCases: outcome.testCases.map((testCase) => ({
            title: (0,secrets/* redact */.E$)(testCase.title),
            status: text(testCase.status) ?? null,
            verdict: (0,src_outcome/* verdictOf */.Vj)(testCase.status),
            durationMs: testCase.durationMs,
        })),
    };
    return JSON.stringify(document);
}
/** Writes `test-run-<run id>.json` under `resultsDir` and returns its path. */
async function writeResultsFile(outcome, resultsDir) {
    const file = external_node_path_default().join(resultsDir, resultsFileName(outcome.runId));
    await (0,promises_.mkdir)(resultsDir, { recursive: true });
    await (0,promises_.writeFile)(file, resultsJson(outcome), 'utf8');
    return file;
}

;// CONCATENATED MODULE: ./src/report/format-duration.ts
/** Shown where a duration is unknown; a summary table cell must never be empty. */
const NO_DURATION = '—';
/** A duration for people: `850 ms`, `1.2 s`, `59.9 s`, `3 min 4 s`, `1 h 2 min`. */
function formatDuration(ms) {
    if (ms === undefined || !Number.isFinite(ms) || ms < 0)
        return NO_DURATION;
    if (Math.round(ms) < 1000)
        return `${Math.round(ms)} ms`;
    const tenths = Math.round(ms / 100);
    if (tenths < 600)
        return `${(tenths / 10).toFixed(1)} s`;
    const seconds = Math.round(ms / 1000);
    if (seconds < 3600)
        return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
    const minutes = Math.round(ms / 60_000);
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

;// CONCATENATED MODULE: ./src/report/summary.ts






/** GitHub drops a step summary above 1 MiB whole; stay well under it. */
const SUMMARY_BUDGET_BYTES = 1_000_000;
// Room kept for the closing lines after the table.
const CLOSING_RESERVE_BYTES = 1_000;
const APPLIED_OPTIONS_MAX_CHARS = 20_000;
function headingOf(outcome) {
    switch (outcome.status) {
        case 'PASSED':
            return outcome.success ? '✅ Test run passed' : '❌ Test run failed';
        case 'FAILED':
            return '❌ Test run failed';
        case 'INTERRUPTED':
            return '❌ Test run interrupted';
        case 'TIMEDOUT':
            return '⏱️ Test run timed out';
        case 'CANCELLED':
            return '🚫 Test run cancelled';
        case 'ERROR':
            return '⚠️ Could not learn the outcome of the test run';
        case 'STARTED':
            return '▶️ Test run started';
    }
}
function code(text) {
    return `<code>${(0,report_escape/* cellText */.Ie)(text)}</code>`;
}
function runLine(outcome) {
    const parts = [];
    if (outcome.mode === 'suite') {
        if (outcome.testSuiteName)
            parts.push(`Suite <strong>${(0,report_escape/* cellText */.Ie)(outcome.testSuiteName)}</strong>`);
        else if (outcome.testSuiteId)
            parts.push(`Suite ${code(outcome.testSuiteId)}`);
    }
    else if (outcome.projectId) {
        parts.push(`Project ${code(outcome.projectId)}`);
    }
    if (outcome.runId)
        parts.push(`Run ${code(outcome.runId)}`);
    if (outcome.branch)
        parts.push(`Branch ${code(outcome.branch)}`);
    if (outcome.environment)
        parts.push(`Environment ${code(outcome.environment)}`);
    if (outcome.durationMs !== undefined)
        parts.push(`Duration ${formatDuration(outcome.durationMs)}`);
    return parts.join(' · ');
}
const ICONS = {
    passed: '✅',
    flaky: '⚠️',
    skipped: '⏭️',
    failure: '❌',
    error: '❌',
    unfinished: '⛔',
};
function statusCell(testCase, failOnFlaky) {
    const verdict = (0,src_outcome/* verdictOf */.Vj)(testCase.status);
    if (verdict === 'flaky' && failOnFlaky)
        return '❌ FLAKY (counts as failed)';
    const icon = testCase.status === 'TIMEDOUT' ? '⏱️' : ICONS[verdict];
    return `${icon} ${(0,report_escape/* cellText */.Ie)(statusLabel(testCase), 60)}`;
}
/** The table of test cases, rows added in report order until `budgetBytes` would be passed. */
function casesTable(ordered, failOnFlaky, budgetBytes) {
    const open = '<table>\n<thead><tr><th>Status</th><th>Test case</th><th>Duration</th></tr></thead>\n<tbody>';
    const close = '</tbody>\n</table>';
    // Statuses repeat: render each status cell once.
    const statusCells = new Map();
    const rows = [open];
    let bytes = Buffer.byteLength(open) + Buffer.byteLength(close) + 2;
    let shown = 0;
    for (const testCase of ordered) {
        let status = statusCells.get(testCase.status);
        if (status === undefined) {
            status = statusCell(testCase, failOnFlaky);
            statusCells.set(testCase.status, status);
        }
        const row = `<tr><td>${status}</td><td>${(0,report_escape/* cellText */.Ie)(testCase.title)}</td><td>${formatDuration(testCase.durationMs)}</td></tr>`;
        const rowBytes = Buffer.byteLength(row) + 1;
        if (bytes + rowBytes > budgetBytes)
            break;
        rows.push(row);
        bytes += rowBytes;
        shown++;
    }
    rows.push(close);
    return { html: rows.join('\n'), shown };
}
function appliedOptionsDetails(options) {
    if (options === undefined)
        return '';
    const json = (0,report_escape/* preText */.zj)(JSON.stringify(options, null, 2) ?? '', APPLIED_OPTIONS_MAX_CHARS);
    return `<details><summary>Applied options</summary><pre><code>${json}</code></pre></details>`;
}
/**
 * The job summary as HTML: heading, run line, message and notes, counts, the table of test cases
 * (failures first) within the byte budget, applied options. Every text is redacted and escaped.
 */
function renderSummary(outcome, context) {
    const budget = context.budgetBytes ?? SUMMARY_BUDGET_BYTES;
    const head = [`<h2>${headingOf(outcome)}</h2>`];
    const line = runLine(outcome);
    if (line)
        head.push(`<p>${line}</p>`);
    if (outcome.message)
        head.push(`<p>${(0,report_escape/* cellText */.Ie)(outcome.message, 2_000)}</p>`);
    if (outcome.notes.length > 0) {
        head.push(`<ul>${outcome.notes.map((note) => `<li>${(0,report_escape/* cellText */.Ie)(note, 1_000)}</li>`).join('')}</ul>`);
    }
    const flakyNote = outcome.failOnFlaky && outcome.counts.flaky > 0 ? ' (flaky ones count as failed)' : '';
    head.push(`<p>${(0,report_escape/* cellText */.Ie)(countsLine(outcome.counts))}${flakyNote}</p>`);
    const details = appliedOptionsDetails(outcome.appliedOptions);
    const tail = [];
    if (outcome.testCases.length === 0) {
        tail.push('<p>No test case was reported.</p>');
    }
    else {
        const used = Buffer.byteLength(head.join('\n')) + Buffer.byteLength(details) + CLOSING_RESERVE_BYTES;
        const ordered = (0,src_outcome/* inReportOrder */.ET)(outcome.testCases);
        const table = casesTable(ordered, outcome.failOnFlaky, budget - used);
        tail.push(table.html);
        const hidden = ordered.length - table.shown;
        if (hidden > 0) {
            let failingHidden = 0;
            for (let i = table.shown; i < ordered.length; i++) {
                if ((0,src_outcome/* isFailing */.DI)(ordered[i], outcome.failOnFlaky))
                    failingHidden++;
            }
            const failingNote = failingHidden > 0 ? ` (${failingHidden} of them failed)` : '';
            const where = context.junitWritten
                ? 'the results file (output <code>results-file</code>) and the JUnit report'
                : 'the results file (output <code>results-file</code>)';
            tail.push(`<p>${labels_plural(hidden, 'more test case')} not shown${failingNote}; the full list is in ${where}.</p>`);
        }
    }
    if (details)
        tail.push(details);
    return `${[...head, ...tail].join('\n')}\n`;
}
/** The summary of a run started with `wait: false`: one line. */
function renderStartedSummary(outcome) {
    const kind = outcome.mode === 'suite' ? 'test suite run' : 'project run';
    const suite = outcome.mode === 'suite' && outcome.testSuiteName
        ? ` of <strong>${(0,report_escape/* cellText */.Ie)(outcome.testSuiteName)}</strong>`
        : '';
    const id = outcome.runId ? ` ${code(outcome.runId)}` : '';
    return `<p>Started ${kind}${id}${suite} (not waiting for it).</p>\n`;
}
async function fileSize(file) {
    if (!file)
        return 0;
    try {
        return (await (0,promises_.stat)(file)).size;
    }
    catch {
        return 0; // core.summary.write() reports a missing file
    }
}
/** Appends the summary to $GITHUB_STEP_SUMMARY, counting what the file already holds against the budget. */
async function writeSummary(outcome, junitWritten) {
    const existing = (await fileSize(process.env.GITHUB_STEP_SUMMARY)) + Buffer.byteLength(core/* summary */.z.stringify());
    const html = outcome.status === 'STARTED'
        ? renderStartedSummary(outcome)
        : renderSummary(outcome, { junitWritten, budgetBytes: SUMMARY_BUDGET_BYTES - existing });
    // A blank line first, so that whatever the file holds cannot run into this summary's HTML.
    const separator = existing > 0 ? '\n\n' : '';
    try {
        await core/* summary */.z.addRaw(separator + html).write();
    }
    finally {
        core/* summary */.z.emptyBuffer();
    }
}

;// CONCATENATED MODULE: ./src/report/index.ts







function reason(error) {
    return (0,report_escape/* oneLine */.TN)(error instanceof Error ? error.message : String(error));
}
/**
 * Sets the outputs (except run-id, which the caller sets as soon as the run starts), logs the
 * counts and each failed test case, emits annotations, writes the results file, the JUnit report
 * (if junitPath) and the summary (if enabled).
 *
 * A results file or summary that cannot be written only warns; a JUnit report that was asked for
 * and cannot be written throws, after everything else is written.
 */
async function writeReports(outcome, settings) {
    setOutcomeOutputs(outcome);
    const files = {};
    if (outcome.status !== 'STARTED') {
        logOutcome(outcome);
        annotate(outcome, settings.summary);
        try {
            files.resultsFile = await writeResultsFile(outcome, settings.resultsDir);
            core/* setOutput */.uH('results-file', files.resultsFile);
        }
        catch (error) {
            core/* warning */.$e(`Could not write the results file: ${reason(error)}`);
        }
    }
    let junitError;
    if (outcome.status !== 'STARTED' && settings.junitPath !== undefined) {
        try {
            // Loaded only when asked for, to keep the action's start-up small.
            const { writeJunit } = await __webpack_require__.e(/* import() */ 998).then(__webpack_require__.bind(__webpack_require__, 2998));
            files.junitFile = await writeJunit(outcome, settings.junitPath);
            core/* setOutput */.uH('junit-file', files.junitFile);
        }
        catch (error) {
            junitError = `Could not write the JUnit report to ${(0,report_escape/* oneLine */.TN)(settings.junitPath)}: ${reason(error)}`;
        }
    }
    if (settings.summary) {
        try {
            await writeSummary(outcome, files.junitFile !== undefined);
        }
        catch (error) {
            core/* warning */.$e(`Could not write the job summary: ${reason(error)}`);
        }
    }
    if (junitError !== undefined)
        throw new Error(junitError);
    return files;
}

// EXTERNAL MODULE: ./src/zod-issue.ts
var zod_issue = __webpack_require__(3216);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js + 1 modules
var lib = __webpack_require__(4942);
;// CONCATENATED MODULE: ./src/version.ts
/** Kept equal to package.json's version by a test. */
const ACTION_NAME = 'test-run-action';
const ACTION_VERSION = '1.0.0';
const USER_AGENT = `${ACTION_NAME}/${ACTION_VERSION}`;

;// CONCATENATED MODULE: ./src/service/transport.ts


/** Network error codes raised before the connection exists, so the service cannot have seen the request. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** A request that got no HTTP answer. */
class TransportError extends Error {
    kind;
    mayHaveReached;
    name = 'TransportError';
    constructor(message, 
    /** timeout: no answer within the request's deadline; aborted: the job is being cancelled. */
    kind, 
    /** False only when the request certainly never reached the service. */
    mayHaveReached) {
        super(message);
        this.kind = kind;
        this.mayHaveReached = mayHaveReached;
    }
}
function describeNetworkError(error) {
    const code = error?.code;
    const text = code ?? (error instanceof Error ? error.message : String(error));
    return new TransportError(text, 'network', !(code !== undefined && NOT_SENT_CODES.has(code)));
}
/**
 * Sends one request through @actions/http-client (so proxies work), bounded by a deadline and an
 * abort signal, neither of which the client supports itself: on either, the client is disposed,
 * which destroys its socket.
 */
async function send(url, method, headers, body, timeoutMs, signal) {
    if (signal?.aborted)
        throw new TransportError('aborted', 'aborted', false);
    const client = new lib/* HttpClient */.Qq(USER_AGENT, [], {
        socketTimeout: timeoutMs,
        allowRetries: false,
        keepAlive: false,
    });
    let timer;
    let onAbort;
    const interrupted = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new TransportError(`no answer within ${timeoutMs} ms`, 'timeout', true)), timeoutMs);
        onAbort = () => reject(new TransportError('aborted', 'aborted', true));
        signal?.addEventListener('abort', onAbort, { once: true });
    });
    const exchange = (async () => {
        const response = await client.request(method, url, body ?? null, headers);
        const text = await response.readBody();
        return { status: response.message.statusCode ?? 0, headers: response.message.headers, body: text };
    })();
    try {
        return await Promise.race([exchange, interrupted]);
    }
    catch (error) {
        if (error instanceof TransportError)
            throw error;
        throw describeNetworkError(error);
    }
    finally {
        clearTimeout(timer);
        if (onAbort)
            signal?.removeEventListener('abort', onAbort);
        client.dispose();
        exchange.catch(() => undefined);
    }
}

;// CONCATENATED MODULE: ./src/service/retry.ts

const RETRYABLE_READ_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Read as "refused, not acted on": the README states this assumption. */
const RETRYABLE_START_STATUSES = new Set([429, 503]);
const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
const RETRY_AFTER_CAP_MS = 120_000;
/** How long polls keep retrying through an outage before giving up. */
const OUTAGE_BUDGET_MS = 10 * 60_000;
const LIMITS = {
    read: { maxAttempts: Number.POSITIVE_INFINITY, maxElapsedMs: OUTAGE_BUDGET_MS },
    start: { maxAttempts: 5, maxElapsedMs: 2 * 60_000 },
    cancel: { maxAttempts: 3, maxElapsedMs: 5_000 },
};
function isRetryable(rule, failure) {
    if (failure instanceof TransportError) {
        if (failure.kind === 'aborted')
            return false;
        return rule === 'start' ? !failure.mayHaveReached : true;
    }
    return rule === 'start'
        ? RETRYABLE_START_STATUSES.has(failure.status)
        : RETRYABLE_READ_STATUSES.has(failure.status);
}
/** Exponential backoff with full jitter: a random delay up to min(cap, base * 2^attempt). */
function backoffDelay(attempt, random) {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
    return Math.floor(random() * ceiling);
}
/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined when absent or malformed. */
function parseRetryAfter(value, now) {
    const text = Array.isArray(value) ? value[0] : value;
    if (!text)
        return undefined;
    if (/^\d+$/.test(text.trim()))
        return Number(text.trim()) * 1000;
    const date = Date.parse(text);
    if (Number.isNaN(date))
        return undefined;
    return Math.max(0, date - now);
}
/** The delay before the next attempt: the service's `Retry-After` when it gave one (bounded), else backoff. */
function retryDelay(failure, attempt, random) {
    if (!(failure instanceof TransportError) && failure.retryAfterMs !== undefined) {
        return Math.min(failure.retryAfterMs, RETRY_AFTER_CAP_MS);
    }
    return backoffDelay(attempt, random);
}
/** Why the retry loop stopped: the last failure, and how many attempts it took. */
class RetriesExhausted extends Error {
    failure;
    reason;
    attempts;
    elapsedMs;
    name = 'RetriesExhausted';
    constructor(failure, reason, attempts, elapsedMs) {
        super(`gave up (${reason}) after ${attempts} attempts`);
        this.failure = failure;
        this.reason = reason;
        this.attempts = attempts;
        this.elapsedMs = elapsedMs;
    }
}
/**
 * Runs `attempt` until it succeeds, a failure is not retryable under `rule`, or the rule's budget
 * or the deadline runs out. `attempt` returns the value, or a Failure to retry.
 */
async function withRetry(rule, context, attempt) {
    const { clock, deadline, signal } = context;
    const limits = LIMITS[rule];
    const started = clock.now();
    for (let attemptNumber = 1;; attemptNumber++) {
        const result = await attempt(attemptNumber);
        if (result.ok)
            return result.value;
        const { failure } = result;
        const delay = retryDelay(failure, attemptNumber - 1, clock.random);
        const resumeAt = clock.now() + delay;
        const stop = (reason) => new RetriesExhausted(failure, reason, attemptNumber, clock.now() - started);
        if (signal?.aborted || (failure instanceof TransportError && failure.kind === 'aborted'))
            throw stop('aborted');
        if (!isRetryable(rule, failure))
            throw stop('not-retryable');
        if (resumeAt >= deadline)
            throw stop('deadline');
        if (attemptNumber >= limits.maxAttempts || resumeAt - started > limits.maxElapsedMs)
            throw stop('budget');
        context.onRetry?.(failure, delay, attemptNumber);
        await clock.sleep(delay, signal);
        if (signal?.aborted)
            throw stop('aborted');
    }
}

;// CONCATENATED MODULE: ./src/service/client.ts







let schemasModule;
/** zod and the schemas load while the first request is on the wire, not before it. */
function loadSchemas() {
    schemasModule ??= Promise.all(/* import() */[__webpack_require__.e(816), __webpack_require__.e(51)]).then(__webpack_require__.bind(__webpack_require__, 2051));
    return schemasModule;
}
/** The service answered with an error, broke the interface, or could not be reached. */
class ServiceError extends Error {
    status;
    name = 'ServiceError';
    constructor(message, status) {
        super(message);
        this.status = status;
    }
}
/** The `timeout` input expired while a request was being made or retried. */
class DeadlineExceeded extends Error {
    name = 'DeadlineExceeded';
}
/** The job is being cancelled. */
class Aborted extends Error {
    name = 'Aborted';
}
const MAX_ERROR_TEXT = 300;
/** The service's `error` text (or the start of a non-JSON body), on one line, without secrets. */
function serviceErrorText(body) {
    if (!body)
        return '';
    let text = body;
    try {
        const parsed = JSON.parse(body);
        if (typeof parsed === 'object' &&
            parsed !== null &&
            typeof parsed.error === 'string') {
            text = parsed.error;
        }
    }
    catch {
        // not JSON: show the start of the body
    }
    const clean = (0,report_escape/* oneLine */.TN)(text, MAX_ERROR_TEXT).trim();
    return clean ? `: ${clean}` : '';
}
const MAY_HAVE_STARTED = 'The service may have started the run anyway, so the request was not repeated: check the runs on the service before re-running this job.';
function describeFailure(operation, stop) {
    const { failure, attempts, elapsedMs } = stop;
    const tries = attempts > 1 ? ` (gave up after ${attempts} attempts over ${(0,duration/* formatElapsed */.C)(elapsedMs)})` : '';
    const start = `Could not ${operation.name}`;
    if (failure instanceof TransportError) {
        const what = failure.kind === 'timeout'
            ? `the service did not answer (${failure.message})`
            : `network error ${failure.message}`;
        if (operation.rule === 'start' && failure.mayHaveReached)
            return `${start}: ${what}. ${MAY_HAVE_STARTED}`;
        return `${start}: ${what}${tries}.`;
    }
    const status = `${start}: HTTP ${failure.status}${serviceErrorText(failure.body)}`;
    if (failure.status === 401 || failure.status === 403) {
        return `${status}. The API key is wrong or lacks permission: create one in the API key settings of the service's dashboard (developer or owner permission is needed to see them) and pass it through a secret.`;
    }
    if (failure.status === 404)
        return `${status}. ${operation.notFound}.`;
    if (operation.rule === 'start' && failure.status >= 500)
        return `${status}. ${MAY_HAVE_STARTED}`;
    return `${status}${tries}.`;
}
function describeRetry(failure) {
    if (failure instanceof TransportError)
        return failure.kind === 'timeout' ? 'no answer' : failure.message;
    return `HTTP ${failure.status}`;
}
class ServiceClient {
    baseUrl;
    apiKey;
    requestTimeoutMs;
    clock;
    constructor(baseUrl, apiKey, requestTimeoutMs, clock) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.requestTimeoutMs = requestTimeoutMs;
        this.clock = clock;
    }
    async call(operation, context) {
        const headers = {
            authorization: `Bearer ${this.apiKey}`,
            accept: 'application/json',
        };
        const body = operation.body === undefined ? undefined : JSON.stringify(operation.body);
        if (body !== undefined)
            headers['content-type'] = 'application/json';
        const url = `${this.baseUrl}${operation.path}`;
        const requestTimeoutMs = context.requestTimeoutMs ?? this.requestTimeoutMs;
        // Without a fast check the schemas will be needed: load them while the request is on the wire.
        if (!operation.accepts)
            void loadSchemas();
        let answer;
        try {
            answer = await withRetry(operation.rule, {
                clock: this.clock,
                deadline: context.deadline,
                signal: context.signal,
                onRetry: (failure, delayMs, attempt) => core/* info */.pq(`Could not ${operation.name} (${describeRetry(failure)}); attempt ${attempt + 1} in ${(0,duration/* formatElapsed */.C)(delayMs)}.`),
            }, async () => {
                const timeoutMs = Math.max(1, Math.min(requestTimeoutMs, context.deadline - this.clock.now()));
                try {
                    const result = await send(url, operation.method, headers, body, timeoutMs, context.signal);
                    if (result.status >= 200 && result.status < 300) {
                        return {
                            ok: true,
                            value: {
                                status: result.status,
                                body: result.body,
                                contentType: result.headers['content-type'],
                            },
                        };
                    }
                    const failure = {
                        status: result.status,
                        retryAfterMs: parseRetryAfter(result.headers['retry-after'], Date.now()),
                        body: result.body,
                    };
                    return { ok: false, failure };
                }
                catch (error) {
                    if (error instanceof TransportError)
                        return { ok: false, failure: error };
                    throw error;
                }
            });
        }
        catch (error) {
            if (!(error instanceof RetriesExhausted))
                throw error;
            if (error.reason === 'aborted')
                throw new Aborted(`Cancelled while trying to ${operation.name}.`);
            // A read that runs into the deadline means the run timed out; a start or a cancel that does
            // is reported with its own last failure.
            if (error.reason === 'deadline' && operation.rule === 'read') {
                throw new DeadlineExceeded(`The time-out expired while trying to ${operation.name}.`);
            }
            const status = error.failure instanceof TransportError ? undefined : error.failure.status;
            throw new ServiceError(describeFailure(operation, error), status);
        }
        return parseAnswer(operation, answer);
    }
}
/**
 * Parses and validates an answer. zod is loaded only when the operation has no fast check or the
 * check fails: then zod's issues name the field that breaks the interface.
 */
async function parseAnswer(operation, answer) {
    let json;
    try {
        // An empty body parses to undefined, which the schema then accepts or names.
        json = answer.body.trim() === '' ? undefined : JSON.parse(answer.body);
    }
    catch {
        const type = answer.contentType ? `, content-type ${answer.contentType}` : '';
        throw new ServiceError(`Could not ${operation.name}: the response is not JSON (HTTP ${answer.status}${type})${serviceErrorText(answer.body)}`, answer.status);
    }
    if (operation.accepts?.(json))
        return json;
    const parsed = operation.schema(await loadSchemas()).safeParse(json, { reportInput: true });
    if (!parsed.success) {
        const problems = parsed.error.issues
            .slice(0, 3)
            .map((issue) => (0,zod_issue/* describeIssue */.n6)(issue, `field '${(0,zod_issue/* issuePath */.dR)('', issue.path)}'`))
            .join('; ');
        throw new ServiceError(`Could not ${operation.name}: the response does not match the service interface: ${(0,secrets/* redact */.E$)(problems)}.`, answer.status);
    }
    return parsed.data;
}

// EXTERNAL MODULE: ./src/service/statuses.ts
var statuses = __webpack_require__(2377);
;// CONCATENATED MODULE: ./src/service/fast-check.ts

/**
 * Hand-written checks of the project run answers that accept exactly what their zod schemas accept
 * (a test holds them equal). With them a project run never loads zod unless an answer breaks the
 * interface, and then zod names the field. zod takes about 30 ms on a cold 10,000-case answer;
 * these, a tenth of that.
 */
const RUN_STATUS_SET = new Set(statuses/* RUN_STATUSES */.LV);
const TEST_CASE_STATUS_SET = new Set(statuses/* TEST_CASE_STATUSES */.Xb);
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isOptionalString(value) {
    return value === undefined || value === null || typeof value === 'string';
}
function isTestCase(value) {
    if (!isObject(value))
        return false;
    const { title, status, durationMs } = value;
    return (typeof title === 'string' &&
        TEST_CASE_STATUS_SET.has(status) &&
        (durationMs === undefined ||
            durationMs === null ||
            (typeof durationMs === 'number' && Number.isFinite(durationMs) && durationMs >= 0)));
}
function isProjectRun(value) {
    if (!isObject(value))
        return false;
    if (!RUN_STATUS_SET.has(value.status))
        return false;
    if (!isOptionalString(value.startedAt) ||
        !isOptionalString(value.finishedAt) ||
        !isOptionalString(value.branchName)) {
        return false;
    }
    const { results } = value;
    if (results === undefined || results === null)
        return true;
    return isObject(results) && Array.isArray(results.testCases) && results.testCases.every(isTestCase);
}
function isProjectRunStart(value) {
    return isObject(value) && typeof value.runId === 'string' && value.runId.length > 0;
}
/** The interface says nothing of what a cancel answers: anything goes. */
function isCancelAnswer() {
    return true;
}

;// CONCATENATED MODULE: ./src/service/project-run.ts


/** Project runs: start, poll the run (whose final answer carries the results) and cancel. */
class ProjectRunDriver {
    client;
    request;
    mode = 'project';
    kind = 'project run';
    target;
    base;
    lastRun;
    constructor(client, request) {
        this.client = client;
        this.request = request;
        this.target = `project '${request.projectId}'`;
        this.base = `/v1/projects/${encodeURIComponent(request.projectId)}/runs`;
    }
    async start(context) {
        const { branch, environment, playwrightProjectName } = this.request;
        const { runId } = await this.client.call({
            name: `start a project run for ${this.target}`,
            method: 'POST',
            path: this.base,
            body: { branch, environment, playwrightProjectName },
            rule: 'start',
            schema: (schemas) => schemas.projectRunStartSchema,
            accepts: isProjectRunStart,
            notFound: `Project '${this.request.projectId}' was not found: check the 'project-id' input`,
        }, context);
        return { runId };
    }
    async poll(runId, context) {
        this.lastRun = await this.client.call({
            name: `get project run '${runId}' of ${this.target}`,
            method: 'GET',
            path: `${this.base}/${encodeURIComponent(runId)}`,
            rule: 'read',
            schema: (schemas) => schemas.projectRunSchema,
            accepts: isProjectRun,
            notFound: `Run '${runId}' was not found in project '${this.request.projectId}'`,
        }, context);
        return { status: this.lastRun.status, final: statuses/* FINAL_RUN_STATUSES */.Ok.has(this.lastRun.status) };
    }
    async finish(runId) {
        const run = this.lastRun;
        if (!run)
            throw new Error(`project run '${runId}' was never polled`);
        return {
            serviceStatus: run.status,
            startedAt: run.startedAt ?? undefined,
            finishedAt: run.finishedAt ?? undefined,
            branch: run.branchName ?? undefined,
            testCases: (run.results?.testCases ?? []).map((testCase) => ({
                title: testCase.title,
                status: testCase.status,
                durationMs: testCase.durationMs ?? undefined,
            })),
        };
    }
    async cancel(runId, context) {
        await this.client.call({
            name: `cancel project run '${runId}' of ${this.target}`,
            method: 'POST',
            path: `${this.base}/cancel`,
            body: { where: { runId } },
            rule: 'cancel',
            schema: (schemas) => schemas.cancelResponseSchema,
            accepts: isCancelAnswer,
            notFound: `Run '${runId}' was not found in project '${this.request.projectId}'`,
        }, context);
    }
}

// EXTERNAL MODULE: ./src/sensitive-overrides.ts
var sensitive_overrides = __webpack_require__(3679);
;// CONCATENATED MODULE: ./src/service/suite-run.ts

/** Test suite runs: start with options, poll the status until FINISHED, then fetch the result once. */
class SuiteRunDriver {
    client;
    testSuiteId;
    options;
    mode = 'suite';
    kind = 'test suite run';
    target;
    constructor(client, testSuiteId, options = {}) {
        this.client = client;
        this.testSuiteId = testSuiteId;
        this.options = options;
        this.target = testSuiteId ? `test suite '${testSuiteId}'` : 'test suite';
    }
    async start(context) {
        const suiteId = this.testSuiteId ?? '';
        const started = await this.client.call({
            name: `start a test suite run for ${this.target}`,
            method: 'POST',
            path: `/v1/testSuite/${encodeURIComponent(suiteId)}/run`,
            body: this.options,
            rule: 'start',
            schema: (schemas) => schemas.suiteRunStartSchema,
            notFound: `Test suite '${suiteId}' was not found: check the 'test-suite-id' input`,
        }, context);
        return {
            runId: started.testSuiteRunId,
            testSuiteName: started.testSuiteName,
            // Hidden whether or not the service echoes `sensitive`: the request said so.
            appliedOptions: (0,sensitive_overrides/* hideSensitiveValues */.V0)(started.options, (0,sensitive_overrides/* sensitiveOverrideNames */.tg)(this.options)),
        };
    }
    async poll(runId, context) {
        const { status } = await this.client.call({
            name: `get the status of test suite run '${runId}'`,
            method: 'GET',
            path: `/v1/testSuiteRun/${encodeURIComponent(runId)}/status`,
            rule: 'read',
            schema: (schemas) => schemas.suiteRunStatusSchema,
            notFound: `Test suite run '${runId}' was not found`,
        }, context);
        return { status, final: status === 'FINISHED' };
    }
    async finish(runId, context) {
        const result = await this.client.call({
            name: `get the result of test suite run '${runId}'`,
            method: 'GET',
            path: `/v1/testSuiteRun/${encodeURIComponent(runId)}/result`,
            rule: 'read',
            schema: (schemas) => schemas.suiteRunResultSchema,
            notFound: `Test suite run '${runId}' was not found`,
        }, context);
        return {
            serviceStatus: 'FINISHED',
            testSuiteName: result.testSuiteName,
            testCases: result.results.map((testCase) => ({
                title: testCase.testName,
                status: testCase.status ?? undefined,
            })),
        };
    }
}

// EXTERNAL MODULE: ./src/settings.ts
var src_settings = __webpack_require__(8750);
// EXTERNAL MODULE: ./src/state.ts
var state = __webpack_require__(2462);
;// CONCATENATED MODULE: ./src/termination.ts

const SIGNALS = ['SIGINT', 'SIGTERM'];
/**
 * Calls `onSignal` when the runner cancels the job (SIGINT, then SIGTERM 7.5 s later). Installing
 * the listeners keeps Node from exiting at once, so the run can be cancelled and reported.
 * Returns a function that removes them.
 */
function onTermination(onSignal) {
    const listener = (signal) => {
        core/* info */.pq(`Received ${signal}: the job is being cancelled.`);
        onSignal();
    };
    for (const signal of SIGNALS)
        process.on(signal, listener);
    return () => {
        for (const signal of SIGNALS)
            process.off(signal, listener);
    };
}

;// CONCATENATED MODULE: ./src/wait.ts


const HEARTBEAT_MS = 60_000;
/** The poll delay with about ±10 % jitter, so that jobs started together do not poll in lockstep. */
function jitteredInterval(pollIntervalMs, random) {
    return Math.round(pollIntervalMs * (0.9 + 0.2 * random()));
}
/**
 * Polls a run until its status is final, the deadline passes or the job is cancelled. Service
 * errors propagate as ServiceError.
 */
async function waitForFinish(driver, runId, options) {
    const { clock, signal, deadline } = options;
    const context = { deadline, signal };
    const elapsed = () => (0,duration/* formatElapsed */.C)(clock.now() - options.startedAt);
    let lastStatus;
    let lastLineAt = clock.now();
    try {
        for (;;) {
            if (signal.aborted)
                return { kind: 'cancelled', lastStatus };
            if (clock.now() >= deadline)
                return { kind: 'timedout', lastStatus };
            const poll = await driver.poll(runId, context);
            if (poll.status !== lastStatus) {
                const change = lastStatus ? `${lastStatus} -> ${poll.status}` : poll.status;
                options.log(`[${elapsed()}] ${driver.kind} ${runId}: ${change}`);
                lastStatus = poll.status;
                lastLineAt = clock.now();
            }
            else if (clock.now() - lastLineAt >= HEARTBEAT_MS) {
                options.log(`[${elapsed()}] ${driver.kind} ${runId}: still ${poll.status}`);
                lastLineAt = clock.now();
            }
            if (poll.final)
                return { kind: 'finished', run: await driver.finish(runId, context) };
            const delay = Math.min(jitteredInterval(options.pollIntervalMs, clock.random), deadline - clock.now());
            await clock.sleep(Math.max(0, delay), signal);
        }
    }
    catch (error) {
        if (error instanceof DeadlineExceeded)
            return { kind: 'timedout', lastStatus };
        if (error instanceof Aborted)
            return { kind: 'cancelled', lastStatus };
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/main.ts














/** The cancel request on abort must land well before the runner's SIGTERM (7.5 s after SIGINT). */
const CANCEL_REQUEST_TIMEOUT_MS = 3000;
const CANCEL_BUDGET_MS = 5000;
function createDriver(settings, clock) {
    const client = new ServiceClient(settings.baseUrl, settings.apiKey, settings.requestTimeoutMs, clock);
    if (settings.mode === 'project') {
        return new ProjectRunDriver(client, {
            projectId: settings.projectId ?? '',
            branch: settings.branch,
            environment: settings.environment,
            playwrightProjectName: settings.playwrightProjectName,
        });
    }
    return new SuiteRunDriver(client, settings.testSuiteId, settings.suiteOptions);
}
/** Cancels a run on the service; returns the line that tells the user what happened. */
async function cancelRun(driver, runId, clock, requestTimeoutMs) {
    if (!driver.cancel) {
        return `Test suite runs have no cancel operation in the service's interface: test suite run ${runId} goes on.`;
    }
    try {
        await driver.cancel(runId, {
            deadline: clock.now() + CANCEL_BUDGET_MS,
            requestTimeoutMs: Math.min(requestTimeoutMs, CANCEL_REQUEST_TIMEOUT_MS),
        });
        return `Cancelled ${driver.kind} ${runId} on the service.`;
    }
    catch (error) {
        core/* warning */.$e(error instanceof ServiceError ? error.message : `Could not cancel ${driver.kind} ${runId}: ${error}`);
        return `Could not cancel ${driver.kind} ${runId}; it may still be running.`;
    }
}
function describeStart(driver, settings) {
    const details = [
        settings.branch ? `branch '${settings.branch}'` : 'no branch',
        settings.environment ? `environment '${settings.environment}'` : undefined,
        settings.playwrightProjectName ? `Playwright project '${settings.playwrightProjectName}'` : undefined,
    ].filter(Boolean);
    return `Starting a ${driver.kind} for ${driver.target} (${details.join(', ')}).`;
}
async function execute(settings, clock, signal) {
    const driver = createDriver(settings, clock);
    const identity = {
        mode: settings.mode,
        projectId: settings.projectId,
        testSuiteId: settings.testSuiteId,
        branch: settings.branch,
        environment: settings.environment,
        failOnFlaky: settings.failOnFlaky,
    };
    const startedAt = clock.now();
    const deadline = startedAt + settings.timeoutMs;
    let runId;
    // A step cancels only a run it started itself and waits for.
    let ownsRun = false;
    if (settings.runId) {
        runId = settings.runId;
        core/* info */.pq(`Attaching to ${driver.kind} ${runId}${settings.projectId ? ` of ${driver.target}` : ''}.`);
    }
    else {
        core/* info */.pq(describeStart(driver, settings));
        try {
            // The start is not abandoned on a signal: its run id is needed to cancel the run.
            const started = await driver.start({ deadline });
            runId = started.runId;
            identity.testSuiteName = started.testSuiteName;
            identity.appliedOptions = started.appliedOptions;
        }
        catch (error) {
            if (error instanceof ServiceError)
                return unfinishedOutcome(identity, 'ERROR', error.message);
            throw error;
        }
        ownsRun = settings.wait;
        core/* info */.pq(`Started ${driver.kind} ${runId}${identity.testSuiteName ? ` (${identity.testSuiteName})` : ''}.`);
    }
    identity.runId = runId;
    core/* setOutput */.uH('run-id', runId);
    const cancellable = ownsRun && settings.cancelOnAbort && driver.cancel !== undefined;
    (0,state/* saveRunState */.i)({ runId, cancellable });
    if (!settings.wait)
        return startedOutcome(identity);
    const cancelIfOwned = async () => {
        if (!ownsRun)
            return [`${driver.kind} ${runId} was not started by this step, so it is left running.`];
        if (!settings.cancelOnAbort)
            return [`cancel-on-abort is false: ${driver.kind} ${runId} is left running.`];
        const line = await cancelRun(driver, runId, clock, settings.requestTimeoutMs);
        core/* info */.pq(line);
        return [line];
    };
    let outcome;
    try {
        const result = await waitForFinish(driver, runId, {
            clock,
            signal,
            startedAt,
            deadline,
            pollIntervalMs: settings.pollIntervalMs,
            log: (line) => core/* info */.pq(line),
        });
        if (result.kind === 'finished') {
            outcome = finishedOutcome(identity, result.run);
        }
        else if (result.kind === 'timedout') {
            const last = result.lastStatus ? `; its last status was ${result.lastStatus}` : '';
            const message = `${driver.kind} ${runId} did not finish within the time-out of ${(0,duration/* formatElapsed */.C)(settings.timeoutMs)} ('timeout' input)${last}.`;
            outcome = unfinishedOutcome(identity, 'TIMEDOUT', message, await cancelIfOwned());
        }
        else {
            const message = `The job was cancelled while waiting for ${driver.kind} ${runId}.`;
            outcome = unfinishedOutcome(identity, 'CANCELLED', message, await cancelIfOwned());
        }
    }
    catch (error) {
        if (!(error instanceof ServiceError))
            throw error;
        outcome = unfinishedOutcome(identity, 'ERROR', error.message);
    }
    (0,state/* saveRunState */.i)({ runId, cancellable, settled: true });
    return outcome;
}
/** The main step: read the inputs, run, report. Every failure ends in core.setFailed, never a throw. */
async function run(dependencies = {}) {
    const clock = dependencies.clock ?? src_clock/* systemClock */.m;
    core/* saveState */.LZ(state/* STATE */.c.isPost, 'true');
    const controller = new AbortController();
    const stopListening = dependencies.cancelSignal
        ? linkSignal(dependencies.cancelSignal, controller)
        : onTermination(() => controller.abort());
    try {
        const settings = await (0,src_settings/* readSettings */.s)(dependencies.input, dependencies.env);
        const outcome = await execute(settings, clock, controller.signal);
        for (const note of outcome.notes)
            core/* info */.pq(note);
        await writeReports(outcome, {
            summary: settings.summary,
            junitPath: settings.junitPath,
            resultsDir: settings.resultsDir,
        });
        if (!outcome.success)
            core/* setFailed */.C1(outcome.message ?? `The ${settings.mode} run failed.`);
    }
    catch (error) {
        if (error instanceof input_error/* InputError */.d) {
            core/* setFailed */.C1(error.message);
        }
        else {
            const message = error instanceof Error ? error.message : String(error);
            core/* debug */.Yz(error instanceof Error && error.stack ? (0,secrets/* redact */.E$)(error.stack) : '');
            core/* setOutput */.uH('status', 'ERROR');
            core/* setOutput */.uH('success', 'false');
            core/* setFailed */.C1(`Unexpected error: ${(0,secrets/* redact */.E$)(message)}`);
        }
    }
    finally {
        stopListening();
    }
}
function linkSignal(source, controller) {
    const abort = () => controller.abort();
    if (source.aborted)
        abort();
    source.addEventListener('abort', abort, { once: true });
    return () => source.removeEventListener('abort', abort);
}


/***/ }),

/***/ 4671:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DI: () => (/* binding */ isFailing),
/* harmony export */   ET: () => (/* binding */ inReportOrder),
/* harmony export */   Vj: () => (/* binding */ verdictOf),
/* harmony export */   zp: () => (/* binding */ countCases)
/* harmony export */ });
/* unused harmony export reportRank */
/**
 * The normalised outcome that both run kinds produce, and the contract's table of test case
 * statuses. Everything that reports (outputs, summary, annotations, JUnit, results file) reads
 * only these types.
 */
const FAILURE_STATUSES = new Set(['FAILED', 'TIMEDOUT', 'INTERRUPTED']);
function verdictOf(status) {
    if (status === 'PASSED')
        return 'passed';
    if (status === 'FLAKY')
        return 'flaky';
    if (status === 'SKIPPED')
        return 'skipped';
    if (status === 'ERROR')
        return 'error';
    if (status !== undefined && FAILURE_STATUSES.has(status))
        return 'failure';
    return 'unfinished';
}
/** Whether a test case makes the step fail. */
function isFailing(testCase, failOnFlaky) {
    const verdict = verdictOf(testCase.status);
    if (verdict === 'flaky')
        return failOnFlaky;
    return verdict === 'failure' || verdict === 'error' || verdict === 'unfinished';
}
/** Flaky cases stay in `flaky` even with fail-on-flaky, so that `total` is the sum of the others. */
function countCases(testCases) {
    const counts = { total: testCases.length, passed: 0, failed: 0, flaky: 0, skipped: 0 };
    for (const testCase of testCases) {
        const verdict = verdictOf(testCase.status);
        if (verdict === 'passed')
            counts.passed++;
        else if (verdict === 'flaky')
            counts.flaky++;
        else if (verdict === 'skipped')
            counts.skipped++;
        else
            counts.failed++;
    }
    return counts;
}
/** Report order: failures, then timed-out, interrupted, flaky, skipped, passed. */
function reportRank(status) {
    switch (status) {
        case 'TIMEDOUT':
            return 1;
        case 'INTERRUPTED':
            return 2;
        case 'FLAKY':
            return 3;
        case 'SKIPPED':
            return 4;
        case 'PASSED':
            return 5;
        default:
            return 0;
    }
}
/** A stable sort by report rank: the order within a group is the service's. */
function inReportOrder(testCases) {
    return testCases
        .map((testCase, index) => ({ testCase, index, rank: reportRank(testCase.status) }))
        .sort((a, b) => a.rank - b.rank || a.index - b.index)
        .map((entry) => entry.testCase);
}


/***/ }),

/***/ 6412:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ie: () => (/* binding */ cellText),
/* harmony export */   TN: () => (/* binding */ oneLine),
/* harmony export */   q8: () => (/* binding */ UNTITLED),
/* harmony export */   zj: () => (/* binding */ preText)
/* harmony export */ });
/* unused harmony export cut */
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7194);

/** Shown for a title that is empty once cleaned. */
const UNTITLED = '(untitled)';
const ELLIPSIS = '…';
// C0 controls other than tab, LF and CR; DEL; C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LINE_BREAKS = / *[\t\n\r\u2028\u2029][\t\n\r\u2028\u2029 ]*/g;
// `$` and `~` too: GitHub renders math and strike-through.
const HTML_SPECIALS = /[&<>"'|`*_[\]\\$~]/g;
const ENTITIES = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
    '|': '&#124;',
    '`': '&#96;',
    '*': '&#42;',
    _: '&#95;',
    '[': '&#91;',
    ']': '&#93;',
    '\\': '&#92;',
    $: '&#36;',
    '~': '&#126;',
};
function escapeHtml(text) {
    return text.replace(HTML_SPECIALS, (char) => ENTITIES[char] ?? char);
}
/** Drops control characters and replaces lone surrogates by U+FFFD; line breaks and tabs stay. */
function stripControls(text) {
    return text.replace(CONTROLS, '').toWellFormed();
}
/** Folds every run of line breaks and tabs (with the spaces around it) to one space, then trims. */
function foldLines(text) {
    return text.replace(LINE_BREAKS, ' ').trim();
}
/** Cuts `text` to at most `maxChars` code points, the last one an ellipsis; never splits a surrogate pair. */
function cut(text, maxChars) {
    if (text.length <= maxChars)
        return text;
    let index = 0;
    let points = 0;
    let keep = 0;
    while (index < text.length) {
        if (points === maxChars - 1)
            keep = index;
        if (points === maxChars)
            return text.slice(0, keep).trimEnd() + ELLIPSIS;
        const code = text.charCodeAt(index);
        const next = text.charCodeAt(index + 1);
        index += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
        points++;
    }
    return text;
}
/**
 * Text for an HTML table cell of the job summary: secrets redacted, one line, at most `maxChars`
 * code points, escaped so that neither HTML nor Markdown can be injected. Never empty.
 */
function cellText(title, maxChars = 200) {
    const line = foldLines(stripControls((0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(title)));
    if (line === '')
        return UNTITLED;
    return escapeHtml(cut(line, maxChars));
}
/** Multi-line text for a `<pre>` block of the summary: secrets redacted, escaped, line breaks kept. */
function preText(text, maxChars) {
    return escapeHtml(cut(stripControls((0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(text)), maxChars));
}
/** Text for an annotation or a log line: secrets redacted, one line, cut when `maxChars` is given. */
function oneLine(text, maxChars) {
    const line = foldLines(stripControls((0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(text)));
    return maxChars === undefined ? line : cut(line, maxChars);
}


/***/ }),

/***/ 7194:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   E$: () => (/* binding */ redact),
/* harmony export */   cl: () => (/* binding */ registerSecret)
/* harmony export */ });
/* unused harmony exports MASK, clearSecrets */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9402);

/**
 * The runner masks registered secrets in the log only. Files this action writes (results file,
 * JUnit report, summary) and texts the service echoes back go through `redact` as well.
 */
const secrets = new Set();
const MASK = '***';
function registerSecret(value) {
    if (value === '' || secrets.has(value))
        return;
    secrets.add(value);
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(value);
}
function redact(text) {
    let result = text;
    for (const secret of secrets) {
        if (result.includes(secret))
            result = result.split(secret).join(MASK);
    }
    return result;
}
/** For tests: forget every secret registered so far. */
function clearSecrets() {
    secrets.clear();
}


/***/ }),

/***/ 3679:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   V0: () => (/* binding */ hideSensitiveValues),
/* harmony export */   cz: () => (/* binding */ maskSensitiveOverrides),
/* harmony export */   tg: () => (/* binding */ sensitiveOverrideNames),
/* harmony export */   u4: () => (/* binding */ isRecord)
/* harmony export */ });
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7194);

/**
 * Sensitive variable overrides of suite runs: masked before anything is printed, hidden in the
 * summary. Kept apart from the options schema so that loading it costs no zod.
 */
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** Every string inside a value, for masking a structured sensitive override. */
function stringLeaves(value) {
    if (typeof value === 'string')
        return [value];
    if (Array.isArray(value))
        return value.flatMap(stringLeaves);
    if (isRecord(value))
        return Object.values(value).flatMap(stringLeaves);
    return [];
}
/** Masks the value of every override marked sensitive, before anything could print it. */
function maskSensitiveOverrides(options) {
    if (!isRecord(options) || !isRecord(options.variableOverrides))
        return;
    for (const override of Object.values(options.variableOverrides)) {
        if (isRecord(override) && override.sensitive === true) {
            for (const secret of stringLeaves(override.value))
                (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .registerSecret */ .cl)(secret);
        }
    }
}
/** The names of the overrides marked sensitive. */
function sensitiveOverrideNames(options) {
    if (!isRecord(options) || !isRecord(options.variableOverrides))
        return [];
    return Object.entries(options.variableOverrides)
        .filter(([, override]) => isRecord(override) && override.sensitive === true)
        .map(([name]) => name);
}
/**
 * Replaces the values of sensitive overrides, for the summary: those the service marks sensitive
 * in `options`, and those named in `alsoHide` (sent as sensitive, whatever the service echoes).
 */
function hideSensitiveValues(options, alsoHide = []) {
    if (!isRecord(options.variableOverrides))
        return options;
    const overrides = {};
    for (const [name, override] of Object.entries(options.variableOverrides)) {
        const sensitive = alsoHide.includes(name) || (isRecord(override) && override.sensitive === true);
        if (!sensitive)
            overrides[name] = override;
        else
            overrides[name] = isRecord(override) ? { ...override, value: '***' } : '***';
    }
    return { ...options, variableOverrides: overrides };
}


/***/ }),

/***/ 2377:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   LV: () => (/* binding */ RUN_STATUSES),
/* harmony export */   Ok: () => (/* binding */ FINAL_RUN_STATUSES),
/* harmony export */   Xb: () => (/* binding */ TEST_CASE_STATUSES)
/* harmony export */ });
/** The service's status values (zod-free, so that the start-up path does not load zod). */
const RUN_STATUSES = [
    'QUEUED',
    'RUNNING',
    'PASSED',
    'FAILED',
    'TIMEDOUT',
    'CANCELLED',
    'INTERRUPTED',
];
const FINAL_RUN_STATUSES = new Set([
    'PASSED',
    'FAILED',
    'TIMEDOUT',
    'CANCELLED',
    'INTERRUPTED',
]);
/** The interface's test case statuses, plus ERROR and CANCELLED, which the contract's table also knows. */
const TEST_CASE_STATUSES = [
    'QUEUED',
    'RUNNING',
    'PASSED',
    'FAILED',
    'TIMEDOUT',
    'SKIPPED',
    'INTERRUPTED',
    'FLAKY',
    'ERROR',
    'CANCELLED',
];


/***/ }),

/***/ 8750:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   s: () => (/* binding */ readSettings)
/* harmony export */ });
/* unused harmony export isLoopbackHost */
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9402);
/* harmony import */ var _duration_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7607);
/* harmony import */ var _input_error_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6236);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7194);





const readInput = (name) => _actions_core__WEBPACK_IMPORTED_MODULE_1__/* .getInput */ .V4(name);
function parseBoolean(input, name, fallback) {
    const value = input(name);
    if (value === '')
        return fallback;
    if (/^true$/i.test(value))
        return true;
    if (/^false$/i.test(value))
        return false;
    throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input '${name}' must be true or false; got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(value)}.`);
}
function parseDurationInput(input, name, fallback) {
    const value = input(name) || fallback;
    const ms = (0,_duration_js__WEBPACK_IMPORTED_MODULE_2__/* .parseDuration */ .E)(value);
    if (ms === undefined || ms <= 0) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input '${name}' must be a positive duration such as 500ms, 10s, 2m or 1h (a plain number is seconds); got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(value)}.`);
    }
    return ms;
}
function isLoopbackHost(hostname) {
    const host = hostname.toLowerCase();
    return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
function parseBaseUrl(value) {
    if (value === '')
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'base-url' is required, e.g. https://tests.example.com.");
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'base-url' must be an absolute URL such as https://tests.example.com; got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(value)}.`);
    }
    if (url.username || url.password) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'base-url' must not carry credentials; pass the key in 'api-key'.");
    }
    if (url.search || url.hash) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'base-url' must not have a query or fragment; got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(value)}.`);
    }
    const loopback = isLoopbackHost(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'base-url' must use https:// (plain http:// is accepted only for localhost, 127.0.0.0/8 and [::1], so the API key never crosses a network in clear text); got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(value)}.`);
    }
    return { baseUrl: url.href.replace(/\/+$/, ''), loopback };
}
/** The contract's branch rule: explicit input, `none`, else the PR head branch, else the pushed branch. */
function resolveBranch(value, env) {
    if (value === 'none')
        return { explicit: true };
    if (value !== '')
        return { branch: value, explicit: true };
    if (env.GITHUB_HEAD_REF)
        return { branch: env.GITHUB_HEAD_REF, explicit: false };
    if (env.GITHUB_REF_TYPE === 'branch' && env.GITHUB_REF_NAME)
        return { branch: env.GITHUB_REF_NAME, explicit: false };
    return { explicit: false };
}
function resolveMode(input) {
    const modeInput = input('mode').toLowerCase();
    const projectId = input('project-id') || undefined;
    const testSuiteId = input('test-suite-id') || undefined;
    const runId = input('run-id') || undefined;
    if (modeInput !== '' && modeInput !== 'project' && modeInput !== 'suite') {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'mode' must be 'project' or 'suite'; got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(input('mode'))}.`);
    }
    if (projectId && testSuiteId) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Inputs 'project-id' and 'test-suite-id' are both set; give 'project-id' for a project run or 'test-suite-id' for a test suite run, not both.");
    }
    const mode = (modeInput || undefined);
    if (mode === 'project' && testSuiteId) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'test-suite-id' is set but 'mode' is 'project'; a project run needs 'project-id'.");
    }
    if (mode === 'suite' && projectId) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'project-id' is set but 'mode' is 'suite'; a test suite run needs 'test-suite-id'.");
    }
    const resolved = mode ?? (projectId ? 'project' : testSuiteId ? 'suite' : undefined);
    if (resolved === 'project' && !projectId) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(runId
            ? "Input 'run-id' needs 'project-id' for a project run (or 'mode: suite' for a test suite run)."
            : "Input 'project-id' is required for a project run.");
    }
    if (resolved === 'suite' && !testSuiteId && !runId) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'test-suite-id' is required to start a test suite run (or 'run-id' to attach to one).");
    }
    if (!resolved) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(runId
            ? "Input 'run-id' needs 'project-id' for a project run, or 'mode: suite' for a test suite run."
            : "Neither 'project-id' nor 'test-suite-id' is set; give 'project-id' for a project run or 'test-suite-id' for a test suite run.");
    }
    return { mode: resolved, projectId, testSuiteId, runId };
}
const SUITE_ENVIRONMENTS = ['PRODUCTION', 'STAGING', 'DEVELOPMENT'];
/**
 * Reads and validates every input. Throws an InputError naming the input; the API key is
 * registered as a secret before anything else can print it.
 */
async function readSettings(input = readInput, env = process.env) {
    const apiKey = input('api-key');
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_3__/* .registerSecret */ .cl)(apiKey);
    if (apiKey === '') {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, shown to the user as is
        "Input 'api-key' is empty. Secrets are not passed to workflows triggered from forks or by Dependabot; if this run came from one, that is why. Otherwise set it, e.g. api-key: ${{ secrets.TEST_RUN_API_KEY }}.");
    }
    const { baseUrl, loopback } = parseBaseUrl(input('base-url'));
    const { mode, projectId, testSuiteId, runId } = resolveMode(input);
    const wait = parseBoolean(input, 'wait', true);
    if (!wait && runId) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'wait' is false but 'run-id' is set; attaching to an existing run only makes sense when waiting for it.");
    }
    const pollIntervalMs = parseDurationInput(input, 'poll-interval', '5s');
    if (pollIntervalMs < 1000 && !loopback) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'poll-interval' must be at least 1s against a remote service; got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(input('poll-interval'))}.`);
    }
    const timeoutMs = parseDurationInput(input, 'timeout', '1h');
    const requestTimeoutMs = parseDurationInput(input, 'request-timeout', '30s');
    const playwrightProjectName = input('playwright-project-name') || undefined;
    const optionsText = input('options');
    if (mode === 'suite' && playwrightProjectName) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'playwright-project-name' applies to project runs only; this is a test suite run.");
    }
    if (mode === 'project' && optionsText) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'options' applies to test suite runs only; this is a project run.");
    }
    if (runId && optionsText) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d("Input 'options' has no effect when 'run-id' attaches to a run that is already started.");
    }
    let environment = input('environment') || undefined;
    if (mode === 'suite' && environment) {
        const upper = environment.toUpperCase();
        if (!SUITE_ENVIRONMENTS.includes(upper)) {
            throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'environment' must be one of ${SUITE_ENVIRONMENTS.join(', ')} for a test suite run; got ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .shown */ .S)(environment)}.`);
        }
        environment = upper;
    }
    const { branch, explicit: branchExplicit } = resolveBranch(input('branch'), env);
    let suiteOptions;
    if (mode === 'suite' && !runId) {
        const { buildSuiteOptions } = await Promise.all(/* import() */[__webpack_require__.e(816), __webpack_require__.e(336)]).then(__webpack_require__.bind(__webpack_require__, 3336));
        suiteOptions = await buildSuiteOptions(optionsText, { environment, branch, branchExplicit, env });
    }
    const workspace = env.GITHUB_WORKSPACE || process.cwd();
    const junitInput = input('junit-report');
    return {
        apiKey,
        baseUrl,
        mode,
        projectId,
        testSuiteId,
        runId,
        branch: suiteOptions ? suiteOptions.metadata?.git?.branch : branch,
        environment: suiteOptions ? suiteOptions.environment : environment,
        playwrightProjectName,
        suiteOptions,
        wait,
        pollIntervalMs,
        timeoutMs,
        requestTimeoutMs,
        cancelOnAbort: parseBoolean(input, 'cancel-on-abort', true),
        failOnFlaky: parseBoolean(input, 'fail-on-flaky', false),
        summary: parseBoolean(input, 'summary', true),
        junitPath: junitInput ? node_path__WEBPACK_IMPORTED_MODULE_0__.resolve(workspace, junitInput) : undefined,
        resultsDir: env.RUNNER_TEMP || (await Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 8161, 23))).tmpdir(),
    };
}


/***/ }),

/***/ 3216:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   bp: () => (/* binding */ describeValue),
/* harmony export */   dR: () => (/* binding */ issuePath),
/* harmony export */   n6: () => (/* binding */ describeIssue)
/* harmony export */ });
/* harmony import */ var _input_error_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6236);

/** `options.testMatch.regex`, `results.testCases[2].status` */
function issuePath(root, path) {
    let text = root;
    for (const key of path)
        text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key);
    return text || '(the whole body)';
}
function describeValue(value) {
    if (value === undefined)
        return 'nothing';
    if (typeof value === 'string')
        return `the string ${(0,_input_error_js__WEBPACK_IMPORTED_MODULE_0__/* .shown */ .S)(value)}`;
    if (value === null || typeof value !== 'object')
        return String(value);
    return Array.isArray(value) ? 'a list' : 'an object';
}
/** One issue as a sentence naming the path, the expectation and (unless hidden) what was given. */
function withArticle(noun) {
    if (noun === 'int')
        return 'an integer';
    return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}
function describeIssue(issue, where, hideInput = false) {
    const given = hideInput ? '' : `; got ${describeValue(issue.input)}`;
    const missing = issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
    if (missing) {
        const expected = issue.code === 'invalid_type' ? withArticle(issue.expected) : `one of ${issue.values.join(', ')}`;
        return `${where} is missing (expected ${expected})`;
    }
    switch (issue.code) {
        case 'invalid_type':
            return `${where} must be ${withArticle(issue.expected)}${given}`;
        case 'too_small':
            return `${where} must be at least ${issue.minimum}${given}`;
        case 'too_big':
            return `${where} must be at most ${issue.maximum}${given}`;
        case 'invalid_value':
            return `${where} must be one of ${issue.values.join(', ')}${given}`;
        case 'unrecognized_keys':
            return `${where} has unknown key ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
        default:
            return `${where}: ${issue.message}${given}`;
    }
}


/***/ })

};

//# sourceMappingURL=300.index.js.map