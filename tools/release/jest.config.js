/** @type {import('jest').Config} */
module.exports = {
  displayName: 'release',
  preset: '../../jest.preset.js',
};
