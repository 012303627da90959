export const id = 51;
export const ids = [51];
export const modules = {

/***/ 2051:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cancelResponseSchema: () => (/* binding */ cancelResponseSchema),
/* harmony export */   projectRunSchema: () => (/* binding */ projectRunSchema),
/* harmony export */   projectRunStartSchema: () => (/* binding */ projectRunStartSchema),
/* harmony export */   suiteRunResultSchema: () => (/* binding */ suiteRunResultSchema),
/* harmony export */   suiteRunStartSchema: () => (/* binding */ suiteRunStartSchema),
/* harmony export */   suiteRunStatusSchema: () => (/* binding */ suiteRunStatusSchema)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8816);
/* harmony import */ var _statuses_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2377);


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


/***/ })

};

//# sourceMappingURL=51.index.js.map