import { appLauncher } from './app-launcher';

describe('appLauncher', () => {
  it('refuses to start a compiled app whose image build is missing, naming the command that makes it', () => {
    const launch = appLauncher('compiled');
    expect(() => launch({ name: 'no-such-app', dir: 'apps/no-such-app', defaultPort: 1 }, {}, { quiet: true })).toThrow(
      'dist/apps/no-such-app/main.js is missing: run `npx nx build no-such-app` first',
    );
  });

  it('starts the migration entry from the same build, and names its file when it is missing', () => {
    const launch = appLauncher('compiled');
    expect(() => launch({ name: 'no-such-app', dir: 'apps/no-such-app', defaultPort: 1 }, {}, { quiet: true }, 'no-such-app migrate', 'migrate')).toThrow(
      'dist/apps/no-such-app/migrate.js is missing: run `npx nx build no-such-app` first',
    );
  });
});
