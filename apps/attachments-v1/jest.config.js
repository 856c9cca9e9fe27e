/** @type {import('jest').Config} */
module.exports = {
  displayName: 'attachments-v1',
  preset: '../../jest.preset.js',
};
