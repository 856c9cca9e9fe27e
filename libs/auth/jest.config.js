/** @type {import('jest').Config} */
module.exports = {
  displayName: 'auth',
  preset: '../../jest.preset.js',
};
