/** @type {import('jest').Config} */
module.exports = {
  displayName: 'paging',
  preset: '../../jest.preset.js',
};
