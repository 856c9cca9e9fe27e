/** @type {import('jest').Config} */
module.exports = {
  displayName: 'observability',
  preset: '../../jest.preset.js',
};
