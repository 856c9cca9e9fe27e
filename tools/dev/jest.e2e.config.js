/** The project's whole-system suites: its `e2e` target (project.json), like apps/api-e2e's. */
/** @type {import('jest').Config} */
module.exports = {
  ...require('./jest.config'),
  displayName: 'dev e2e',
  testMatch: ['**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  // Each suite starts the whole system as processes: two at a time on two cores.
  maxWorkers: 2,
};
