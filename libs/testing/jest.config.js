/** @type {import('jest').Config} */
module.exports = {
  displayName: 'testing',
  preset: '../../jest.preset.js',
};
