/** @type {import('jest').Config} */
module.exports = {
  displayName: 'openapi',
  preset: '../../jest.preset.js',
};
