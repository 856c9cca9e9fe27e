/** @type {import('jest').Config} */
module.exports = {
  displayName: 'workspace-rules',
  preset: '../../jest.preset.js',
};
