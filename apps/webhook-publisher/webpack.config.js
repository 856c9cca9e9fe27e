// The image build of webhook-publisher: `npx nx build webhook-publisher` -> dist/apps/webhook-publisher (see tools/build).
const { appWebpackConfig } = require('../../tools/build/app-webpack-config');

module.exports = appWebpackConfig(__dirname, { migrate: true });
