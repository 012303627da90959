export const id = 159;
export const ids = [159,51];
export const modules = {

/***/ 1159:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   buildSuiteOptions: () => (/* binding */ buildSuiteOptions)
/* harmony export */ });
/* unused harmony export defaultNote */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8816);
/* harmony import */ var _service_is_record_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(4945);
/* harmony import */ var _service_schemas_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2051);
/* harmony import */ var _service_validation_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5752);
/* harmony import */ var _input_error_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9354);
/* harmony import */ var _sensitive_overrides_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7205);






/** What each field must be, in words, by path (list indices as `[]`). */
const EXPECTATIONS = {
    numberOfWorkers: 'an integer from 0 to 128',
    retries: 'an integer, 0 or more',
    repeats: 'an integer, 0 or more',
    operationDelayMs: 'a number of milliseconds, 0 or more',
    testTimeoutMs: 'a number of milliseconds, 0 or more',
    testMatch: 'an object {glob?: string, regex?: string}',
    'testMatch.glob': 'a string',
    'testMatch.regex': 'a string',
    setupTestId: 'a string (a test id)',
    teardownTestId: 'a string (a test id)',
    beforeEachTestId: 'a string (a test id)',
    afterEachTestId: 'a string (a test id)',
    notificationProfile: 'one of PROJECT, SUITE, DISABLED',
    environment: 'one of PRODUCTION, STAGING, DEVELOPMENT',
    variableOverrides: `an object that maps each variable name to ${_service_schemas_js__WEBPACK_IMPORTED_MODULE_0__.OVERRIDE_FORMS}`,
    metadata: 'an object {git?: {branch?: string}, note?: string}',
    'metadata.git': 'an object {branch?: string}',
    'metadata.git.branch': 'a string',
    'metadata.note': 'a string',
    urlReplacements: 'a list of {original: string, replacement: string}',
    'urlReplacements[]': 'an object {original: string, replacement: string}',
    'urlReplacements[].original': 'a string',
    'urlReplacements[].replacement': 'a string',
};
const NUMBER_FIELDS = new Set(['numberOfWorkers', 'retries', 'repeats', 'operationDelayMs', 'testTimeoutMs']);
/** At most this many problems are listed: a pasted blob could have thousands. */
const MAX_ISSUES = 5;
/** `urlReplacements[].original` for the path `['urlReplacements', 0, 'original']`. */
function schemaKey(path) {
    return path
        .map((key, index) => (typeof key === 'number' ? '[]' : `${index === 0 ? '' : '.'}${String(key)}`))
        .join('');
}
/** The keys the schema allows for the object at a path of an issue. */
function allowedKeys(issuePathKeys) {
    let schema = _service_schemas_js__WEBPACK_IMPORTED_MODULE_0__.suiteOptionsSchema;
    for (const key of issuePathKeys) {
        while (schema instanceof zod__WEBPACK_IMPORTED_MODULE_2__/* .ZodOptional */ .IiU)
            schema = schema.unwrap();
        if (schema instanceof zod__WEBPACK_IMPORTED_MODULE_2__/* .ZodObject */ .bvH)
            schema = schema.shape[String(key)];
        else if (schema instanceof zod__WEBPACK_IMPORTED_MODULE_2__/* .ZodArray */ .naA)
            schema = schema.element;
    }
    while (schema instanceof zod__WEBPACK_IMPORTED_MODULE_2__/* .ZodOptional */ .IiU)
        schema = schema.unwrap();
    return schema instanceof zod__WEBPACK_IMPORTED_MODULE_2__/* .ZodObject */ .bvH ? Object.keys(schema.shape) : [];
}
/** `'number_of_workers'` or `'NumberOfWorkers'` -> `'numberOfWorkers'` */
function closeKey(key, allowed) {
    const squash = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
    return allowed.find((candidate) => squash(candidate) === squash(key));
}
/** One problem as a sentence: the path, what it must be, and (outside variableOverrides) what was given. */
function formatIssue(issue) {
    const where = (0,_service_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .issuePath */ .dR)('options', issue.path);
    if (issue.code === 'unrecognized_keys') {
        const allowed = allowedKeys(issue.path);
        const keys = issue.keys
            .map((key) => {
            const close = closeKey(key, allowed);
            return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
        })
            .join(', ');
        return `${where} has unknown key ${keys}; allowed keys: ${allowed.join(', ')}.`;
    }
    if (issue.code === 'custom')
        return `${where} ${issue.message}.`;
    const key = schemaKey(issue.path);
    const expected = EXPECTATIONS[key] ?? issue.message;
    // Nothing under variableOverrides is echoed, only its type: a value there may be a secret.
    if (issue.path[0] === 'variableOverrides')
        return `${where} must be ${expected}; got ${(0,_service_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .describeType */ .MF)(issue.input)}.`;
    if (issue.input === undefined)
        return `${where} is missing: it must be ${expected}.`;
    const unquote = NUMBER_FIELDS.has(key) && typeof issue.input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)
        ? ' (write a number without quotes: no string is read as a number)'
        : '';
    return `${where} must be ${expected}; got ${(0,_service_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .describeValue */ .bp)(issue.input)}${unquote}.`;
}
/** The first line of a YAML error, without the colon that introduces its excerpt. */
function yamlReason(error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return first.replace(/[:.\s]+$/, '');
}
async function parseText(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        // not JSON: YAML is a superset, so parse it as YAML
    }
    const { parse } = await __webpack_require__.e(/* import() */ 815).then(__webpack_require__.t.bind(__webpack_require__, 8815, 19));
    try {
        return parse(text);
    }
    catch (error) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'options' must be a JSON or YAML object; it does not parse: ${yamlReason(error)}.`);
    }
}
/** Parses the `options` input and merges in the `environment` and `branch` inputs and the default note. */
async function buildSuiteOptions(text, inputs) {
    const raw = text === '' ? {} : await parseText(text);
    (0,_sensitive_overrides_js__WEBPACK_IMPORTED_MODULE_1__/* .maskSensitiveOverrides */ .cz)(raw);
    if (!(0,_service_is_record_js__WEBPACK_IMPORTED_MODULE_5__/* .isRecord */ .u)(raw)) {
        const given = raw === null || raw === undefined ? 'null (an empty document)' : (0,_service_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .describeValue */ .bp)(raw);
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'options' must be a JSON or YAML object; got ${given}.`);
    }
    const parsed = _service_schemas_js__WEBPACK_IMPORTED_MODULE_0__.suiteOptionsSchema.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
        const { issues } = parsed.error;
        const listed = issues.slice(0, MAX_ISSUES).map(formatIssue);
        if (issues.length > MAX_ISSUES)
            listed.push(`(and ${issues.length - MAX_ISSUES} more problems)`);
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'options' is invalid: ${listed.join(' ')}`);
    }
    const options = parsed.data;
    if (inputs.environment && options.environment && inputs.environment !== options.environment) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'environment' (${inputs.environment}) and options.environment (${options.environment}) disagree; set one of them.`);
    }
    const optionsBranch = options.metadata?.git?.branch;
    // An explicit branch input, 'none' included, must agree with the options; a computed one yields.
    if (inputs.branchExplicit && optionsBranch !== undefined && optionsBranch !== inputs.branch) {
        const input = inputs.branch === undefined ? "'none' (send no branch)" : (0,_service_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .shown */ .SP)(inputs.branch);
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_4__/* .InputError */ .d(`Input 'branch' (${input}) and options.metadata.git.branch (${(0,_service_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .shown */ .SP)(optionsBranch)}) disagree; set one of them.`);
    }
    const branch = optionsBranch ?? inputs.branch;
    const note = options.metadata?.note ?? defaultNote(inputs.env);
    const metadata = {
        ...(branch !== undefined ? { git: { ...options.metadata?.git, branch } } : {}),
        ...(note !== undefined ? { note } : {}),
    };
    return {
        ...options,
        ...(inputs.environment || options.environment
            ? { environment: options.environment ?? inputs.environment }
            : {}),
        ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    };
}
/** A note that lets a run be traced back to its workflow run from the service. */
function defaultNote(env) {
    const repository = env.GITHUB_REPOSITORY;
    if (!repository)
        return undefined;
    const sha = env.GITHUB_SHA ? `@${env.GITHUB_SHA.slice(0, 12)}` : '';
    const server = env.GITHUB_SERVER_URL || 'https://github.com';
    const runUrl = env.GITHUB_RUN_ID ? ` ${server}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : '';
    return `GitHub Actions: ${repository}${sha}${runUrl}`;
}


/***/ }),

/***/ 2051:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   OVERRIDE_FORMS: () => (/* binding */ OVERRIDE_FORMS),
/* harmony export */   cancelResponseSchema: () => (/* binding */ cancelResponseSchema),
/* harmony export */   projectRunSchema: () => (/* binding */ projectRunSchema),
/* harmony export */   projectRunStartSchema: () => (/* binding */ projectRunStartSchema),
/* harmony export */   suiteOptionsSchema: () => (/* binding */ suiteOptionsSchema),
/* harmony export */   suiteRunResultSchema: () => (/* binding */ suiteRunResultSchema),
/* harmony export */   suiteRunStartSchema: () => (/* binding */ suiteRunStartSchema),
/* harmony export */   suiteRunStatusSchema: () => (/* binding */ suiteRunStatusSchema)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8816);
/* harmony import */ var _is_record_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4945);
/* harmony import */ var _statuses_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2377);
/* harmony import */ var _validation_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5752);




/**
 * Responses of the service. Extra fields are tolerated (z.object strips them); missing or mistyped
 * ones are not. Loaded with a dynamic import by the client, once a request is under way.
 */
const timestamp = zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullish();
const projectRunStartSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ runId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().min(1) });
const projectRunSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    status: zod__WEBPACK_IMPORTED_MODULE_1__/* ["enum"] */ .k5n(_statuses_js__WEBPACK_IMPORTED_MODULE_0__/* .RUN_STATUSES */ .LV),
    startedAt: timestamp,
    finishedAt: timestamp,
    branchName: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullish(),
    results: zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
        testCases: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
            title: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
            status: zod__WEBPACK_IMPORTED_MODULE_1__/* ["enum"] */ .k5n(_statuses_js__WEBPACK_IMPORTED_MODULE_0__/* .TEST_CASE_STATUSES */ .Xb),
            durationMs: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().nonnegative().nullish(),
        })),
    })
        .nullish(),
});
const suiteRunStartSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    projectId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    testSuiteRunId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().min(1),
    testSuiteName: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    options: zod__WEBPACK_IMPORTED_MODULE_1__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J()),
});
const suiteRunStatusSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ status: zod__WEBPACK_IMPORTED_MODULE_1__/* ["enum"] */ .k5n(['RUNNING', 'FINISHED']) });
const suiteRunResultSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    projectId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    testSuiteRunId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    testSuiteName: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    results: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
        runId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullish(),
        testId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullish(),
        testName: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
        status: zod__WEBPACK_IMPORTED_MODULE_1__/* ["enum"] */ .k5n(_statuses_js__WEBPACK_IMPORTED_MODULE_0__/* .TEST_CASE_STATUSES */ .Xb).nullish(),
    })),
});
/** The interface does not say what a cancel answers: anything, or nothing. */
const cancelResponseSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J();
const count = zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().int().min(0);
const milliseconds = zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().min(0);
const OVERRIDE_KEYS = ['value', 'sensitive'];
const OVERRIDE_FORMS = 'a string, {value: string, sensitive?: boolean} or {value: {...}, sensitive?: boolean}';
/**
 * What is wrong with an override, path relative to it. Checked by hand rather than with a zod
 * union, whose errors name no field; and nothing here echoes a value, which may be a secret.
 */
function overrideProblems(override) {
    if (typeof override === 'string')
        return [];
    if (!(0,_is_record_js__WEBPACK_IMPORTED_MODULE_2__/* .isRecord */ .u)(override)) {
        return [{ path: [], message: `must be ${OVERRIDE_FORMS}; got ${(0,_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .describeType */ .MF)(override)}` }];
    }
    const problems = [];
    const unknown = Object.keys(override).filter((key) => !OVERRIDE_KEYS.includes(key));
    if (unknown.length > 0) {
        problems.push({
            path: [],
            message: `has unknown key ${unknown.map((key) => `'${key}'`).join(', ')}; allowed keys: ${OVERRIDE_KEYS.join(', ')}`,
        });
    }
    if (!('value' in override)) {
        problems.push({ path: ['value'], message: 'is missing: it must be a string or an object' });
    }
    else if (typeof override.value !== 'string' && !(0,_is_record_js__WEBPACK_IMPORTED_MODULE_2__/* .isRecord */ .u)(override.value)) {
        problems.push({
            path: ['value'],
            message: `must be a string or an object; got ${(0,_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .describeType */ .MF)(override.value)}`,
        });
    }
    if ('sensitive' in override && typeof override.sensitive !== 'boolean') {
        problems.push({
            path: ['sensitive'],
            message: `must be true or false; got ${(0,_validation_js__WEBPACK_IMPORTED_MODULE_3__/* .describeType */ .MF)(override.sensitive)}`,
        });
    }
    return problems;
}
const variableOverride = zod__WEBPACK_IMPORTED_MODULE_1__/* .custom */ .IeY().superRefine((override, context) => {
    for (const problem of overrideProblems(override)) {
        context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }
});
/** The start-suite-run body of the interface. */
const suiteOptionsSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .strictObject */ .rej({
    numberOfWorkers: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().int().min(0).max(128).optional(),
    retries: count.optional(),
    repeats: count.optional(),
    operationDelayMs: milliseconds.optional(),
    testTimeoutMs: milliseconds.optional(),
    testMatch: zod__WEBPACK_IMPORTED_MODULE_1__/* .strictObject */ .rej({ glob: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(), regex: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional() }).optional(),
    setupTestId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    teardownTestId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    beforeEachTestId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    afterEachTestId: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    notificationProfile: zod__WEBPACK_IMPORTED_MODULE_1__/* ["enum"] */ .k5n(['PROJECT', 'SUITE', 'DISABLED']).optional(),
    environment: zod__WEBPACK_IMPORTED_MODULE_1__/* ["enum"] */ .k5n(['PRODUCTION', 'STAGING', 'DEVELOPMENT']).optional(),
    variableOverrides: zod__WEBPACK_IMPORTED_MODULE_1__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), variableOverride).optional(),
    metadata: zod__WEBPACK_IMPORTED_MODULE_1__/* .strictObject */ .rej({
        git: zod__WEBPACK_IMPORTED_MODULE_1__/* .strictObject */ .rej({ branch: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional() }).optional(),
        note: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    })
        .optional(),
    urlReplacements: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .strictObject */ .rej({ original: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), replacement: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP() })).optional(),
});


/***/ })

};

//# sourceMappingURL=159.index.js.map