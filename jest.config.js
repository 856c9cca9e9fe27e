// `npm test`: every project's tests in one Jest run, so the fixtures (PostgreSQL, the Kafka
// broker) start once. Per project, `npx nx test <project>` runs that project's jest.config.js.
const preset = require('./jest.preset');

module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
};
