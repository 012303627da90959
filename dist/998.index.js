export const id = 998;
export const ids = [998];
export const modules = {

/***/ 2998:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   writeJunit: () => (/* binding */ writeJunit)
/* harmony export */ });
/* unused harmony exports xmlAttr, junitXml */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _inputs_secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3332);
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6412);
/* harmony import */ var _outcome_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(5066);





const LINE_BREAKS = /[\t\n\r\u2028\u2029]+/g;
// What XML 1.0 cannot carry even escaped: C0 controls but tab/LF/CR, U+FFFE, U+FFFF, lone surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_SPECIALS = /[&<>"']/g;
const XML_ENTITIES = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&apos;',
};
/**
 * An attribute value: secrets redacted, whole but on one line (some JUnit consumers cut a name at
 * a newline or show `&#10;` literally), without what XML cannot carry, escaped.
 */
function xmlAttr(text) {
    // Redacted before and after cleaning, so that a secret split by a control character stays masked.
    const oneLine = (0,_inputs_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .redact */ .E$)((0,_inputs_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .redact */ .E$)(text).replace(LINE_BREAKS, ' ').replace(NOT_XML, ''));
    // The regex is slow on long inputs; most titles are well-formed and skip it.
    const wellFormed = oneLine.isWellFormed() ? oneLine : oneLine.replace(LONE_SURROGATES, '');
    return wellFormed.replace(XML_SPECIALS, (char) => XML_ENTITIES[char] ?? char);
}
function seconds(ms) {
    return ms !== undefined && Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0';
}
function suiteNameOf(outcome) {
    if (outcome.mode === 'suite')
        return outcome.testSuiteName || `suite ${outcome.testSuiteId ?? ''}`.trim();
    return `project ${outcome.projectId ?? ''}`.trim();
}
function testCaseXml(testCase, classname, tally) {
    const name = xmlAttr(testCase.title).trim() || _escape_js__WEBPACK_IMPORTED_MODULE_3__/* .UNTITLED */ .q8;
    const open = `    <testcase name="${name}" classname="${classname}" time="${seconds(testCase.durationMs)}"`;
    const status = xmlAttr(testCase.status ?? '');
    switch ((0,_outcome_js__WEBPACK_IMPORTED_MODULE_4__/* .verdictOf */ .Vj)(testCase.status)) {
        case 'passed':
            return `${open}/>`;
        case 'flaky':
            return `${open}><properties><property name="flaky" value="true"/></properties></testcase>`;
        case 'skipped':
            tally.skipped++;
            return `${open}><skipped/></testcase>`;
        case 'failure':
            tally.failures++;
            return `${open}><failure message="${status}" type="${status}"/></testcase>`;
        case 'error':
            tally.errors++;
            return `${open}><error message="${status}" type="${status}"/></testcase>`;
        case 'unfinished':
            tally.failures++;
            return `${open}><failure message="did not finish (${status || 'no status'})" type="unfinished"/></testcase>`;
    }
}
/** A JUnit XML report with one testsuite; the declared counts always match the elements. */
function junitXml(outcome) {
    const suiteName = xmlAttr(suiteNameOf(outcome));
    const tally = { failures: 0, errors: 0, skipped: 0 };
    const testCases = outcome.testCases.map((testCase) => testCaseXml(testCase, suiteName, tally));
    const durationMs = outcome.durationMs ?? outcome.testCases.reduce((sum, testCase) => sum + (testCase.durationMs ?? 0), 0);
    const counts = `tests="${outcome.testCases.length}" failures="${tally.failures}" errors="${tally.errors}" skipped="${tally.skipped}" time="${seconds(durationMs)}"`;
    const properties = [
        ['runId', outcome.runId],
        ['status', outcome.status],
        ['branch', outcome.branch],
        ['environment', outcome.environment],
        ['message', outcome.message],
    ];
    const propertyLines = properties
        .filter((entry) => entry[1] !== undefined)
        .map(([name, value]) => `      <property name="${name}" value="${xmlAttr(value)}"/>`);
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="${suiteName}" ${counts}>`,
        `  <testsuite name="${suiteName}" ${counts}>`,
        '    <properties>',
        ...propertyLines,
        '    </properties>',
        ...testCases,
        '  </testsuite>',
        '</testsuites>',
        '',
    ].join('\n');
}
/** Writes the JUnit report to `file` (absolute), creating its directory; returns the path. */
async function writeJunit(outcome, file) {
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir)(node_path__WEBPACK_IMPORTED_MODULE_1___default().dirname(file), { recursive: true });
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(file, junitXml(outcome), 'utf8');
    return file;
}


/***/ })

};

//# sourceMappingURL=998.index.js.map