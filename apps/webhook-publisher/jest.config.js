/** @type {import('jest').Config} */
module.exports = {
  displayName: 'webhook-publisher',
  preset: '../../jest.preset.js',
};
