/** @type {import('jest').Config} */
module.exports = {
  displayName: 'errors',
  preset: '../../jest.preset.js',
};
