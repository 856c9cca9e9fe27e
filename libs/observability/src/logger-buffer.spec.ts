import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const FIXTURE = join(__dirname, 'testing', 'buffered-logger.fixture.ts');
const running: ChildProcess[] = [];
// Also when a test fails waiting: a fixture left alive would keep Jest from exiting.
afterEach(() => running.splice(0).forEach((child) => child.kill('SIGKILL')));

/** Runs the fixture; resolves with the messages of its stdout once `until` holds or it exits. */
function runFixture(then: string, flushIntervalMs: number, until: (messages: string[]) => boolean): { child: ChildProcess; messages: Promise<string[]> } {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', FIXTURE, then, String(flushIntervalMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  running.push(child);
  let text = '';
  const parse = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  const messages = new Promise<string[]>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (until(parse())) resolve(parse());
    });
    child.on('exit', () => resolve(parse()));
  });
  return { child, messages };
}

describe('createLogger with bufferBytes', () => {
  it('writes the gathered lines when the process exits', async () => {
    const { messages } = runFixture('exit', 60_000, () => false);
    expect(await messages).toEqual(['first']);
  });

  it('writes a gathered line within the flush interval while the process runs on', async () => {
    const { messages } = runFixture('stay', 200, (m) => m.includes('first'));
    // Without the interval's flush the line would stay gathered until the kill, and never arrive.
    expect(await messages).toEqual(['first']);
  });

  it('writes at once after an error line, with the lines gathered before it', async () => {
    // An interval far longer than the test: only the error's flush can bring the lines.
    const { messages } = runFixture('error', 600_000, (m) => m.includes('broken'));
    expect(await messages).toEqual(['first', 'broken']);
  });
});
