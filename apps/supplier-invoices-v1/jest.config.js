/** @type {import('jest').Config} */
module.exports = {
  displayName: 'supplier-invoices-v1',
  preset: '../../jest.preset.js',
};
