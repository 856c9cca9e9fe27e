// @ts-check
const { basename, join } = require('node:path');
const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');

const REPO_ROOT = join(__dirname, '..', '..');

/**
 * The webpack configuration of a service's image build, shared by every app's
 * `webpack.config.js` so the six builds cannot drift apart. `@nx/webpack/plugin` infers each
 * app's cached `build` target from that file (`npx nx build customers-v1`).
 *
 * - The workspace code (`@erp/*`) is bundled; npm packages stay external and are listed, with
 *   the versions of the root lockfile, in the generated `dist/apps/<app>/package.json` and its
 *   pruned lockfile: the image installs exactly those, so no image carries another service's
 *   packages or a dev dependency.
 * - TypeScript compiles with the project's tsconfig (decorator metadata for Nest, ES2022 classes),
 *   transpile-only: type checking is the separate
 *   `typecheck` target, so a build does not pay for it twice.
 * - `migrate.js` is built next to `main.js` for services with a database (the migration Job).
 *
 * @param {string} projectDir the app's folder (`__dirname` of its webpack.config.js)
 * @param {{ migrate?: boolean }} options
 */
function appWebpackConfig(projectDir, options = {}) {
  const app = basename(projectDir);
  return {
    output: { path: join(REPO_ROOT, 'dist', 'apps', app) },
    plugins: [
      new NxAppWebpackPlugin({
        target: 'node',
        compiler: 'tsc',
        main: './src/main.ts',
        tsConfig: './tsconfig.json',
        additionalEntryPoints: options.migrate ? [{ entryName: 'migrate', entryPath: './src/migrate.ts' }] : [],
        outputHashing: 'none',
        optimization: false,
        sourceMap: true,
        skipTypeChecking: true,
        externalDependencies: 'all',
        generatePackageJson: true,
      }),
    ],
  };
}

module.exports = { appWebpackConfig };
