// @ts-check
// Records each suite's duration from a Jest JSON report into suite-durations.json, for
// test-sequencer.js: `npx jest <paths> --json --outputFile=/tmp/report.json`, then
// `node tools/test-fixtures/src/record-suite-durations.js /tmp/report.json`. Suites the report
// does not name keep their recorded duration; whole seconds, since only the order matters.
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const DURATIONS_FILE = path.join(__dirname, 'suite-durations.json');

const report = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const durations = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'));
for (const suite of report.testResults) {
  const file = path.relative(REPO_ROOT, suite.name).split(path.sep).join('/');
  durations[file] = Math.max(1, Math.round((suite.endTime - suite.startTime) / 1000));
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`${Object.keys(sorted).length} suites in ${path.relative(REPO_ROOT, DURATIONS_FILE)}\n`);
