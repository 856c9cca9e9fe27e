/** @type {import('jest').Config} */
module.exports = {
  displayName: 'customers-v1',
  preset: '../../jest.preset.js',
};
