export const id = 661;
export const ids = [661];
export const modules = {

/***/ 6661:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cleanup: () => (/* binding */ cleanup)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9402);
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9373);
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1300);
/* harmony import */ var _settings_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8750);
/* harmony import */ var _state_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(2462);





/**
 * The post step (`post-if: cancelled()`): cancels a run the main step started and could not see to
 * an end, because it was killed. It only warns: cleanup never fails a job.
 */
async function cleanup() {
    const runId = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(_state_js__WEBPACK_IMPORTED_MODULE_4__/* .STATE */ .c.runId);
    if (!runId || _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(_state_js__WEBPACK_IMPORTED_MODULE_4__/* .STATE */ .c.cancellable) !== 'true' || _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(_state_js__WEBPACK_IMPORTED_MODULE_4__/* .STATE */ .c.settled) === 'true') {
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq('No open run to cancel.');
        return;
    }
    try {
        const settings = await (0,_settings_js__WEBPACK_IMPORTED_MODULE_3__/* .readSettings */ .s)();
        const driver = (0,_main_js__WEBPACK_IMPORTED_MODULE_2__/* .createDriver */ .fO)(settings, _clock_js__WEBPACK_IMPORTED_MODULE_1__/* .systemClock */ .m);
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`The main step did not see ${driver.kind} ${runId} to an end; cancelling it.`);
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(await (0,_main_js__WEBPACK_IMPORTED_MODULE_2__/* .cancelRun */ .Su)(driver, runId, _clock_js__WEBPACK_IMPORTED_MODULE_1__/* .systemClock */ .m, settings.requestTimeoutMs));
    }
    catch (error) {
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not cancel run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
    }
}


/***/ })

};

//# sourceMappingURL=661.index.js.map