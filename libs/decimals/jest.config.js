/** @type {import('jest').Config} */
module.exports = {
  displayName: 'decimals',
  preset: '../../jest.preset.js',
};
