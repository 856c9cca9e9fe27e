import { migrateCommandOf } from './run-migrate';

describe("migrate.js's command line (docs/migrations.md)", () => {
  it.each([
    [[], { kind: 'migrate', run: 'expand' }],
    [['--phase=expand'], { kind: 'migrate', run: 'expand' }],
    [['--phase=contract'], { kind: 'migrate', run: 'all' }],
    [['--wait-for-schema'], { kind: 'wait', timeoutMs: 600_000 }],
    [['--wait-for-schema=900'], { kind: 'wait', timeoutMs: 900_000 }],
  ])('%j -> %j', (argv, command) => {
    expect(migrateCommandOf(argv)).toEqual(command);
  });

  it.each([[['--phase=all']], [['--phase=expand', '--phase=contract']], [['--wait-for-schema=soon']]])('refuses %j with the usage', (argv) => {
    expect(() => migrateCommandOf(argv)).toThrow(/usage: migrate\.js/);
  });
});
