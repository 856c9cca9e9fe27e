/** @type {import('jest').Config} */
module.exports = {
  displayName: 'customers-queries',
  preset: '../../jest.preset.js',
};
