/** @type {import('jest').Config} */
module.exports = {
  displayName: 'deploy-check',
  preset: '../../jest.preset.js',
};
