/** @type {import('jest').Config} */
module.exports = {
  displayName: 'idempotency',
  preset: '../../jest.preset.js',
};
