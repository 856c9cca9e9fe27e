/** @type {import('jest').Config} */
module.exports = {
  displayName: 'deploy-check',
  preset: '../../jest.preset.js',
  // Whole-system suites (*.e2e-spec.ts) are the project's `e2e` target (jest.e2e.config.js), run
  // alone by `npm test` and in CI, not by `nx affected -t test` before a push.
  testPathIgnorePatterns: ['/node_modules/', '\\.e2e-spec\\.ts$'],
};
