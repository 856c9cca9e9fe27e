/** @type {import('jest').Config} */
module.exports = {
  displayName: 'internal-api',
  preset: '../../jest.preset.js',
};
