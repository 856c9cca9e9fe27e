/** @type {import('jest').Config} */
module.exports = {
  displayName: 'messaging',
  preset: '../../jest.preset.js',
};
