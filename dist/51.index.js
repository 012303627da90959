export const id = 51;
export const ids = [51];
export const modules = {

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

//# sourceMappingURL=51.index.js.map