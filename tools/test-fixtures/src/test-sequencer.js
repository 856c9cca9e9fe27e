// @ts-check
const { readFileSync } = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const DURATIONS_FILE = path.join(__dirname, 'suite-durations.json');

/**
 * Jest's order, except on a machine that has never run the tests (a fresh clone, CI): there Jest
 * knows no durations and runs the largest files first, which put the longest whole-system suite
 * (2.5 minutes) last and left the other worker idle for about 100 s of a 520 s phase. Here the
 * suites run longest first from the durations recorded in suite-durations.json
 * (`node tools/test-fixtures/src/record-suite-durations.js <jest --json output>` refreshes them);
 * a suite not listed runs after the listed ones, in Jest's order. Once Jest has durations of its
 * own (a developer's second run), its order stands: it also puts last run's failures first.
 */
class RecordedDurationSequencer extends Sequencer {
  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const ordered = /** @type {import('@jest/test-result').Test[]} */ (super.sort(tests));
    if (ordered.some((test) => test.duration != null)) return ordered;
    /** @type {Record<string, number>} */
    const recorded = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'));
    const duration = (/** @type {import('@jest/test-result').Test} */ test) =>
      recorded[path.relative(REPO_ROOT, test.path).split(path.sep).join('/')] ?? -1;
    return [...ordered].sort((a, b) => duration(b) - duration(a));
  }
}

module.exports = RecordedDurationSequencer;
