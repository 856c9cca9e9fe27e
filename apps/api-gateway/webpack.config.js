// The image build of api-gateway: `npx nx build api-gateway` -> dist/apps/api-gateway (see tools/build).
const { appWebpackConfig } = require('../../tools/build/app-webpack-config');

module.exports = appWebpackConfig(__dirname, { migrate: false });
