// The image build of supplier-invoices-v1: `npx nx build supplier-invoices-v1` -> dist/apps/supplier-invoices-v1 (see tools/build).
const { appWebpackConfig } = require('../../tools/build/app-webpack-config');

module.exports = appWebpackConfig(__dirname, { migrate: true });
