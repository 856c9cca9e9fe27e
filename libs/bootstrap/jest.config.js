/** @type {import('jest').Config} */
module.exports = {
  displayName: 'bootstrap',
  preset: '../../jest.preset.js',
};
