/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api-gateway',
  preset: '../../jest.preset.js',
};
