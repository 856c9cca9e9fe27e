/** @type {import('jest').Config} */
module.exports = {
  displayName: 'etag',
  preset: '../../jest.preset.js',
};
