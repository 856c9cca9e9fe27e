import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { WORKSPACE_ROOT } from './workspace-projects';

const run = promisify(execFile);
const bin = (name: string) => path.join(WORKSPACE_ROOT, 'node_modules', '.bin', name);

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * `npm run lint` on source text put at an existing file's path, as a change to that file would be
 * linted: the real ESLint with the workspace's config and Nx's project graph.
 */
async function lintAs(filePath: string, source: string): Promise<LintMessage[]> {
  const linting = run(bin('eslint'), ['--stdin', '--stdin-filename', filePath, '--format', 'json'], {
    cwd: WORKSPACE_ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 120_000,
  });
  linting.child.stdin?.end(source);
  // ESLint exits 1 when it reports an error; the report is on stdout either way.
  const { stdout } = await linting.catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }));
  const [result] = JSON.parse(stdout) as { messages: LintMessage[] }[];
  return result?.messages ?? [];
}

const boundaryMessages = (messages: LintMessage[]) =>
  messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);

describe('module boundaries (npm run lint, @nx/enforce-module-boundaries from the project tags)', () => {
  beforeAll(async () => {
    // As `npm run lint` does first: the rule reads Nx's cached project graph.
    await run(bin('nx'), ['show', 'projects'], { cwd: WORKSPACE_ROOT });
  }, 120_000);

  it('fails an app that imports another app', async () => {
    const messages = await lintAs('apps/customers-v1/src/main.ts', "import '../../sales-orders-v3/src/main';\n");
    expect(boundaryMessages(messages)).toEqual([
      'Projects cannot be imported by a relative or absolute path, and must begin with a npm scope',
    ]);
  });

  it('fails a library that imports a tool', async () => {
    const source = "import { startKafkaDevBroker } from '@erp/kafka-dev-broker';\nexport const broker = startKafkaDevBroker;\n";
    const messages = await lintAs('libs/testing/src/index.ts', source);
    expect(boundaryMessages(messages)).toEqual(['A project tagged with "type:lib" can only depend on libs tagged with "type:lib"']);
  });

  it("fails a service that imports another service's library", async () => {
    const source = "import * as queries from '@erp/sales-orders-queries';\nexport const q = queries;\n";
    const messages = await lintAs('apps/customers-v1/src/main.ts', source);
    expect(boundaryMessages(messages)).toEqual([
      'A project tagged with "scope:customers" can only depend on libs tagged with "scope:customers", "scope:shared"',
    ]);
  });

  it("passes a service that imports its own library and shared ones", async () => {
    const source =
      "import * as queries from '@erp/customers-queries';\nimport * as paging from '@erp/paging';\nexport const q = [queries, paging];\n";
    expect(boundaryMessages(await lintAs('apps/customers-v1/src/main.ts', source))).toEqual([]);
  });
});
