/** @type {import('jest').Config} */
module.exports = {
  displayName: 'database',
  preset: '../../jest.preset.js',
};
