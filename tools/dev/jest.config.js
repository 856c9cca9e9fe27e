/** @type {import('jest').Config} */
module.exports = {
  displayName: 'dev',
  preset: '../../jest.preset.js',
};
