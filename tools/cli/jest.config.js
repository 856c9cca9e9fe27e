/** @type {import('jest').Config} */
module.exports = {
  displayName: 'cli',
  preset: '../../jest.preset.js',
};
