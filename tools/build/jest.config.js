/** @type {import('jest').Config} */
module.exports = {
  displayName: 'app-build',
  preset: '../../jest.preset.js',
};
