/**
 * Where a process's CPU went, by stage of a request, from a V8 CPU profile (`node --cpu-prof`, the
 * `.cpuprofile` format Chrome DevTools and speedscope read). Each sample is given to the innermost
 * frame of its stack that belongs to a named stage (the code doing the work), so a `JSON.stringify`
 * called by the logger counts as logging and one called by the controller as the service's own code.
 * Written here because the maintained profile tools (DevTools, speedscope, 0x) draw flame graphs but
 * do not group frames into the stages of this system.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  /** Microseconds since the previous sample (the first since `startTime`). */
  timeDeltas: number[];
}

/** A stage and the frames that belong to it: a test on the frame's script URL or function name. */
export interface StageRule {
  stage: string;
  url?: RegExp;
  fn?: RegExp;
  /** Claims a frame only where no outer frame has a stage (Node's own modules: a file write the logger makes is logging). */
  weak?: boolean;
}

/**
 * The stages of a request in this system, most specific first (the first rule a frame matches names
 * its stage). URLs are those of the running source (`file:///.../libs/auth/src/...`) and of the
 * packages under node_modules.
 */
export const REQUEST_STAGES: StageRule[] = [
  { stage: 'garbage collection', fn: /^\(garbage collector\)$/ },
  { stage: 'authentication (JWT)', url: /\/(libs\/auth\/|node_modules\/jose\/)/ },
  { stage: 'validation', url: /\/node_modules\/(class-validator|class-transformer|libphonenumber-js|validator)\/|\/libs\/[^/]+\/src\/.*(pipe|validat|query)\w*\.ts/ },
  { stage: 'tenant binding', url: /\/libs\/database\/src\/(tenancy|nest)\// },
  { stage: 'ETag', url: /\/libs\/etag\// },
  { stage: 'logging', url: /\/node_modules\/fastify\/lib\/(log-controller|logger-factory)\.js|\/node_modules\/(pino|pino-http|nestjs-pino|pino-std-serializers|@pinojs|sonic-boom|thread-stream|fast-redact|quick-format-unescaped)\/|\/libs\/observability\/src\/log/ },
  { stage: 'metrics', url: /\/node_modules\/(prom-client|tdigest|bintrees)\/|\/libs\/observability\/src\/metrics\// },
  { stage: 'tracing', url: /\/node_modules\/@opentelemetry\/|\/libs\/observability\/src\/trac/ },
  { stage: 'proxy (gateway)', url: /\/node_modules\/(@fastify\/reply-from|@fastify\/http-proxy|undici|http-proxy)\/|\/apps\/api-gateway\/src\/(proxy|routing)/ },
  { stage: 'database driver', url: /\/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-array|postgres-date|postgres-interval|pg-cursor|pg-query-stream|typeorm)\// },
  { stage: 'framework (Nest, routing)', url: /\/node_modules\/(@nestjs\/|fastify|@fastify\/|find-my-way|avvio|light-my-request|express|router|body-parser|rxjs|reflect-metadata|fast-json-stringify|ajv|secure-json-parse|path-to-regexp)/ },
  { stage: 'service code', url: /\/(apps|libs)\/[^/]+\/src\// },
  { stage: 'node: HTTP, sockets and event loop', url: /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|timers|process\/task_queues|async_hooks))/ },
  { stage: 'module loading and compiling', url: /\/node_modules\/(@swc-node|@swc|typescript|source-map-support|pirates)\/|^node:internal\/modules/ },
  { stage: 'node: other', url: /^node:/, weak: true },
  { stage: 'other packages', url: /\/node_modules\// },
];

/** Frames no stage claims: V8 and the runtime, given to the caller's stage. */
const UNCLAIMED = 'V8 and native (no caller stage)';
const IDLE = /^\((idle|program)\)$/;

export interface StageCost {
  stage: string;
  /** CPU time in the profile, in ms. */
  ms: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface StageBreakdown {
  busyMs: number;
  idleMs: number;
  stages: StageCost[];
  /** `frame;frame;frame <µs>` lines, root first: what flame graph tools (speedscope, flamegraph.pl) read. */
  folded: string[];
}

function ruleOf(rules: StageRule[], frame: CpuProfileNode['callFrame']): StageRule | undefined {
  return rules.find((rule) => (rule.url ? rule.url.test(frame.url) : true) && (rule.fn ? rule.fn.test(frame.functionName) : true));
}

/** A frame as a flame graph names it: function and script (without the checkout's path). */
function frameLabel(frame: CpuProfileNode['callFrame']): string {
  const script = frame.url.replace(/^file:\/\/.*?\/(node_modules|apps|libs|tools)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber + 1}`.replace(/;/g, ',');
}

/**
 * The profile's busy time by stage, and its folded stacks. `exclude`: frames whose samples are left
 * out entirely (e.g. start-up, so that only the measured load counts).
 */
export function stageBreakdown(profile: CpuProfile, rules: StageRule[] = REQUEST_STAGES, exclude?: StageRule[]): StageBreakdown {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Per node, once: its stage (innermost claimed frame on its stack), whether it is excluded, its stack.
  const memo = new Map<number, { stage: string; excluded: boolean; stack: string }>();
  const describe = (id: number): { stage: string; excluded: boolean; stack: string } => {
    const known = memo.get(id);
    if (known) return known;
    const node = byId.get(id);
    if (!node) throw new Error(`the profile names node ${id} but does not hold it`);
    const up = parent.get(id);
    const outer = up === undefined ? { stage: UNCLAIMED, excluded: false, stack: '' } : describe(up);
    const own = ruleOf(rules, node.callFrame);
    const excluded = outer.excluded || (exclude !== undefined && ruleOf(exclude, node.callFrame) !== undefined);
    const label = frameLabel(node.callFrame);
    const stage = !own || (own.weak && outer.stage !== UNCLAIMED) ? outer.stage : own.stage;
    const result = { stage, excluded, stack: outer.stack ? `${outer.stack};${label}` : label };
    memo.set(id, result);
    return result;
  };

  const stageUs = new Map<string, number>();
  const foldedUs = new Map<string, number>();
  let idleUs = 0;
  profile.samples.forEach((id, index) => {
    // A sample's time is the delta to the next sample (the last one's is unknown: counted as 0).
    const us = profile.timeDeltas[index + 1] ?? 0;
    const node = byId.get(id);
    if (node && IDLE.test(node.callFrame.functionName)) {
      idleUs += us;
      return;
    }
    const { stage, excluded, stack } = describe(id);
    if (excluded) return;
    stageUs.set(stage, (stageUs.get(stage) ?? 0) + us);
    foldedUs.set(stack, (foldedUs.get(stack) ?? 0) + us);
  });

  const busyUs = [...stageUs.values()].reduce((sum, us) => sum + us, 0);
  const stages = [...stageUs.entries()]
    .map(([stage, us]) => ({ stage, ms: Math.round(us / 100) / 10, share: busyUs > 0 ? us / busyUs : 0 }))
    .sort((a, b) => b.ms - a.ms);
  const folded = [...foldedUs.entries()].sort((a, b) => b[1] - a[1]).map(([stack, us]) => `${stack} ${Math.round(us)}`);
  return { busyMs: Math.round(busyUs / 100) / 10, idleMs: Math.round(idleUs / 100) / 10, stages, folded };
}
