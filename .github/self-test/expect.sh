# Helpers for the checking steps of .github/workflows/self-test.yml, sourced in `shell: bash`
# (Linux, macOS, and Git Bash on Windows). Values reach a step through `env:`, never through
# `${{ }}` in the script. Each helper prints one line per check; `expect_done` exits 1 when one failed.

expect_failures=0

expect_fail() {
  echo "::error title=Self-test::$1"
  expect_failures=$((expect_failures + 1))
}

# expect NAME ACTUAL EXPECTED
expect() {
  if [ "$2" = "$3" ]; then
    echo "ok: $1 = '$2'"
  else
    expect_fail "$1: expected '$3', got '$2'"
  fi
}

# expect_set NAME ACTUAL
expect_set() {
  if [ -n "$2" ]; then
    echo "ok: $1 = '$2'"
  else
    expect_fail "$1 is empty"
  fi
}

# expect_file NAME PATH: the file exists (checked by Node, which reads Windows paths as they are).
expect_file() {
  if [ -n "$2" ] && node -e 'process.exit(require("fs").statSync(process.argv[1]).isFile() ? 0 : 1)' "$2" 2>/dev/null; then
    echo "ok: $1 is a file: $2"
  else
    expect_fail "$1: no file at '$2'"
  fi
}

# expect_results PATH RUN_ID STATUS SUCCESS TOTAL PASSED FAILED FLAKY SKIPPED: the results file says the same as the outputs.
expect_results() {
  local out
  # shellcheck disable=SC2016 # JavaScript, not shell
  if out=$(node -e '
    const [file, runId, status, success, total, passed, failed, flaky, skipped] = process.argv.slice(1);
    const file_ = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const r = file_.runs?.[0] ?? {};
    const want = { schemaVersion: 1, runs: 1, runId, status, success: success === "true",
      total: Number(total), passed: Number(passed), failed: Number(failed), flaky: Number(flaky), skipped: Number(skipped) };
    const got = { schemaVersion: file_.schemaVersion, runs: file_.runs?.length, runId: r.runId, status: r.status, success: r.success, ...r.counts };
    const wrong = Object.keys(want).filter((k) => got[k] !== want[k]).map((k) => `${k}: expected ${JSON.stringify(want[k])}, got ${JSON.stringify(got[k])}`);
    if (r.testCases?.length !== Number(total)) wrong.push(`testCases: expected ${total}, got ${r.testCases?.length}`);
    console.log(wrong.join("; "));
    process.exit(wrong.length > 0 ? 1 : 0);
  ' "$@" 2>&1); then
    echo "ok: the results file agrees with the outputs"
  else
    expect_fail "results file $1: $out"
  fi
}

expect_done() {
  if [ "$expect_failures" -gt 0 ]; then
    echo "$expect_failures check(s) failed"
    exit 1
  fi
  echo "every check passed"
}
