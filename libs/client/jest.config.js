/** @type {import('jest').Config} */
module.exports = {
  displayName: 'client',
  preset: '../../jest.preset.js',
};
