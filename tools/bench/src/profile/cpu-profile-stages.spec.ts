import { type CpuProfile, stageBreakdown } from './cpu-profile-stages';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url, lineNumber: 0 }, children });

// root -> handler (service code) -> verify (jose) -> stringify (native, no URL)
//                                -> info (pino) -> stringify (native)
//                                               -> write (node:fs)
//      -> (idle); root -> require (start-up); root -> timers (node:, no caller stage)
const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)', '', [2, 6, 7, 8, 10]),
    frame(2, 'handler', 'file:///repo/apps/customers-v1/src/customers/customers.controller.ts', [3, 4]),
    frame(3, 'verify', 'file:///repo/node_modules/jose/dist/node/cjs/jwt/verify.js'),
    frame(4, 'info', 'file:///repo/node_modules/pino/lib/proto.js', [5, 9]),
    frame(5, 'stringify', ''),
    frame(6, '(idle)', ''),
    frame(7, 'compile', 'file:///repo/node_modules/@swc-node/register/lib/register.js'),
    frame(8, '(garbage collector)', ''),
    frame(9, 'write', 'node:fs'),
    frame(10, 'processTimers', 'node:internal/timers'),
  ],
  // Each sample's time is the next delta: 100 µs, then 200, 300, 400, 500, 600, 700, 800.
  samples: [2, 3, 5, 6, 7, 8, 9, 10, 2],
  timeDeltas: [0, 100, 200, 300, 400, 500, 600, 700, 800],
};

describe('stageBreakdown', () => {
  const startUp = [{ stage: 'start-up', url: /@swc-node/ }];
  const result = stageBreakdown(profile, undefined, startUp);
  const ms = (stage: string) => result.stages.find((s) => s.stage === stage)?.ms;

  it('gives each sample to the innermost frame that belongs to a stage, native frames to their caller', () => {
    expect(ms('service code')).toBe(0.1);
    expect(ms('authentication (JWT)')).toBe(0.2);
    // stringify and the file write under pino count as logging.
    expect(ms('logging')).toBe(1.0);
    expect(ms('garbage collection')).toBe(0.6);
    // Node's own modules claim only what no outer frame claims.
    expect(ms('node: other')).toBeUndefined();
    expect(ms('node: HTTP, sockets and event loop')).toBe(0.8);
  });

  it('leaves idle time and excluded frames out of the busy time, and shares add up to 1', () => {
    expect(result.idleMs).toBe(0.4);
    expect(result.busyMs).toBe(2.7);
    expect(result.stages.find((s) => s.stage === 'start-up')).toBeUndefined();
    expect(result.stages.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 6);
  });

  it('writes folded stacks, root first, with µs', () => {
    expect(result.folded).toContain(
      '(root) :1;handler apps/customers-v1/src/customers/customers.controller.ts:1;info node_modules/pino/lib/proto.js:1;stringify :1 300',
    );
  });
});
