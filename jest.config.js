// The whole workspace as one Jest project, for running some files without Nx
// (`npx jest apps/customers-v1/src/customers`). `npm test` does not use it: it is
// `nx run-many -t lint typecheck test e2e`, each project's Jest run from its own jest.config.js,
// with the fixtures (PostgreSQL, the Kafka broker) started once around it (with-test-fixtures.ts).
const preset = require('./jest.preset');

module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
};
