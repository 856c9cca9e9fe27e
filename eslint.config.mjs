import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'];

// A source file a newcomer can read in one sitting (issue 41): tests and generated code aside.
const MAX_SOURCE_LINES = 300;

// Scopes: a service's own libraries serve that service only; shared code uses shared code only.
const SCOPE_RULES = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
  { sourceTag: 'scope:customers', onlyDependOnLibsWithTags: ['scope:customers', 'scope:shared'] },
  { sourceTag: 'scope:supplier-invoices', onlyDependOnLibsWithTags: ['scope:supplier-invoices', 'scope:shared'] },
  { sourceTag: 'scope:attachments', onlyDependOnLibsWithTags: ['scope:attachments', 'scope:shared'] },
  { sourceTag: 'scope:sales-orders', onlyDependOnLibsWithTags: ['scope:sales-orders', 'scope:shared'] },
  { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:webhooks', 'scope:shared'] },
  // The benchmark (a tool, never deployed) runs the services' own list SQL as its baselines, so
  // that the comparison measures the service around the query, not a different query.
  {
    sourceTag: 'scope:bench',
    onlyDependOnLibsWithTags: ['scope:bench', 'scope:shared', 'scope:customers', 'scope:sales-orders'],
  },
];

/** `@nx/enforce-module-boundaries` from the project tags (project.json), with the given kind rules. */
function moduleBoundaries(kindRules) {
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      // The only cycle: messaging's own tests use the test harness, which sets up topics with
      // messaging's naming rules. Production code never depends on @erp/testing.
      ignoredCircularDependencies: [['messaging', 'testing']],
      // The erp CLI loads the dev tooling lazily (only `token` and `webhooks listen` need it); its
      // tests import it directly.
      checkDynamicDependenciesExceptions: ['@erp/dev'],
      depConstraints: [...kindRules, ...SCOPE_RULES],
    },
  ];
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'test-output/**', '.nx/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      // Kinds: an app never imports another app; a library never imports a tool.
      '@nx/enforce-module-boundaries': moduleBoundaries([
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
        { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
        // Tools may build on tools (deploy checks read the service catalog of tools/dev).
        { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
      ]),
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    ignores: [...TEST_FILES, '**/generated/**'],
    rules: {
      // Every line counts, blank and comment too, as a reader meets them.
      'max-lines': ['error', { max: MAX_SOURCE_LINES, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: TEST_FILES,
    rules: {
      // A library's own tests may drive a test tool (the relay outage test stops a dev broker of
      // its own); the library's code still may not. Apps stay apart in their tests too.
      '@nx/enforce-module-boundaries': moduleBoundaries([
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
        { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
        { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
      ]),
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
