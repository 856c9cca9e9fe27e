/**
 * `npm run bench:attachments`: memory and throughput of attachments-v1 with a large file.
 *
 * Starts PostgreSQL (DATABASE_URL's server, else a throw-away embedded one) and Kafka
 * (KAFKA_BROKERS, else the in-memory dev broker), migrates a fresh database, and runs attachments-v1
 * as its own process (as in production) on the filesystem driver (a temporary directory) or, with
 * `--driver=s3`, on S3 (a local s3rver). Then it uploads one `--size-mib` file (default 200 MiB)
 * as multipart/form-data, streamed from a generator (the bench never holds the file either), and
 * downloads it in each representation (raw bytes, bare Base64, JSON), checking the SHA-256 of what
 * comes back. For each phase it reports the throughput and the service's peak RSS (sampled every
 * 20 ms from /proc) above its RSS after a warm-up; every growth must stay under `--max-growth-mib`
 * (default 64), or the command exits 1.
 *
 *   npm run bench:attachments -- [--size-mib=200] [--driver=filesystem|s3] [--max-growth-mib=64] [--out=file.json]
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { dropDatabase, ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@erp/database';
import { runTs, SERVICES, spawnTs, waitForReady, type SpawnedProcess } from '@erp/dev';
import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { type InternalApiStub, startInternalApiStub, startTestS3Server, TestAuth, type TestS3Server } from '@erp/testing';
import { download, fileChunks, upload } from './attachments/transfer';
import { sampleMemory } from './framework/process-memory';

const COMPANY = '7000001';
const INVOICE = 'BENCH-1';
const INVOICE_PATH = `/v1/supplierInvoice/${INVOICE}/Attachment`;
const MIB = 1024 * 1024;

export interface AttachmentsBenchOptions {
  sizeMiB: number;
  driver: 'filesystem' | 's3';
  maxGrowthMiB: number;
  out?: string;
  /** PostgreSQL server (a database is created and dropped); default DATABASE_URL, else embedded. */
  databaseServerUrl?: string;
  /** Kafka; default KAFKA_BROKERS, else the in-memory dev broker. */
  kafkaBrokers?: string;
  /** Progress lines; default stdout. */
  log?: (line: string) => void;
}

export interface PhaseResult {
  phase: string;
  bytes: number;
  seconds: number;
  throughputMiBs: number;
  peakRssMiB: number | null;
  growthMiB: number | null;
  ok: boolean;
}

const stdoutLog = (line: string) => process.stdout.write(`[bench:attachments] ${line}\n`);
const round1 = (n: number) => Math.round(n * 10) / 10;

function parseOptions(argv: string[]): AttachmentsBenchOptions {
  const get = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const driver = get('driver') ?? 'filesystem';
  if (driver !== 'filesystem' && driver !== 's3') throw new Error('--driver must be filesystem or s3');
  return {
    sizeMiB: Number(get('size-mib') ?? 200),
    driver,
    maxGrowthMiB: Number(get('max-growth-mib') ?? 64),
    out: get('out'),
  };
}

export interface AttachmentsBenchReport {
  machine: { cpus: number; node: string };
  fileMiB: number;
  driver: string;
  serviceRssAfterWarmupMiB: number | null;
  serviceLifetimePeakRssMiB: number | null;
  maxGrowthMiB: number;
  phases: PhaseResult[];
}

/** Runs the benchmark (see the file comment) and returns its report; `ok` on each phase. */
export async function runAttachmentsMemoryBench(options: AttachmentsBenchOptions): Promise<AttachmentsBenchReport> {
  const log = options.log ?? stdoutLog;
  const size = Math.round(options.sizeMiB * MIB);
  let embedded: EmbeddedPostgresHandle | undefined;
  let broker: KafkaDevBroker | undefined;
  let service: SpawnedProcess | undefined;
  let s3: TestS3Server | undefined;
  let owners: InternalApiStub[] = [];
  let storageDir: string | undefined;
  let serverUrl = options.databaseServerUrl ?? process.env.DATABASE_URL;
  const databaseName = `bench_attachments_${randomBytes(4).toString('hex')}`;
  try {
    if (!serverUrl) {
      log('starting embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({ dataDir: '.data/bench-attachments', persistent: false });
      serverUrl = embedded.adminUrl;
    }
    let kafkaBrokers = options.kafkaBrokers ?? process.env.KAFKA_BROKERS;
    if (!kafkaBrokers) {
      broker = await startKafkaDevBroker({ port: 0, logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: log } });
      kafkaBrokers = broker.brokers.join(',');
    }
    let storageEnv: Record<string, string>;
    if (options.driver === 's3') {
      s3 = await startTestS3Server('bench-attachments');
      storageEnv = s3.serviceEnv;
    } else {
      storageDir = await mkdtemp(join(tmpdir(), 'erp-bench-attachments-'));
      storageEnv = { STORAGE_DRIVER: 'filesystem', STORAGE_DIR: storageDir };
    }
    const databaseUrl = await ensureDatabase(serverUrl, databaseName);
    const auth = new TestAuth();
    const keys = auth.keys;
    // The owners' internal APIs: the invoice is known locally (below), so only the upload's
    // announcement to supplier-invoices-v1 is called; the stubs answer it at once (204).
    const customers = await startInternalApiStub(auth, 'customers-v1');
    const invoices = await startInternalApiStub(auth, 'supplier-invoices-v1');
    owners = [customers, invoices];
    const env = {
      ...auth.serviceEnv,
      CUSTOMERS_URL: customers.url,
      SUPPLIER_INVOICES_URL: invoices.url,
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_TOPIC_PREFIX: `bench.${randomBytes(3).toString('hex')}.`,
      LOG_LEVEL: 'warn',
      ATTACHMENT_MAX_BYTES: String(size + MIB),
      ...storageEnv,
    };
    await runTs('attachments-v1 migrate', 'apps/attachments-v1/src/migrate.ts', env);
    // The invoice is made known directly, as its SUPPLIERINVOICE_CREATED event would.
    const sql = new Client({ connectionString: databaseUrl });
    await sql.connect();
    await sql.query(`INSERT INTO attachment_owners (company_id, endpoint, object_id, known_since) VALUES ($1, 'supplierInvoice', $2, now())`, [
      COMPANY,
      INVOICE,
    ]);
    await sql.end();

    const port = await freePort();
    // With the Node flags it runs with everywhere (tools/dev catalog).
    const nodeArgs = SERVICES.find((s) => s.name === 'attachments-v1')?.nodeArgs;
    service = spawnTs('attachments-v1', 'apps/attachments-v1/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' }, { quiet: true, nodeArgs });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForReady(`${baseUrl}/health/ready`, service);
    const pid = service.child.pid;
    if (pid === undefined) throw new Error('the service process has no pid');
    const token = await signDevToken(keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read erp:write' });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'bench' };

    // Warm-up: every code path once with a small file (JIT, pools, S3 client, storage directories).
    const warm = await upload(baseUrl, INVOICE_PATH, headers, fileChunks(2 * MIB, createHash('sha256')));
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${warm.body}`);
    const warmId = (JSON.parse(warm.body) as { id: string }).id;
    for (const [kind, accept] of [['raw', 'application/octet-stream'], ['base64', 'text/plain'], ['json', 'application/json']] as const) {
      await download(`${baseUrl}/v1/attachment/${warmId}`, { ...headers, accept }, kind);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = sampleMemory({ service: pid }).stop().service.peakRssMiB;
    log(`service RSS after warm-up: ${baseline} MiB; ${options.sizeMiB} MiB file on the ${options.driver} driver`);

    const results: PhaseResult[] = [];
    const phase = async (name: string, run: () => Promise<number>) => {
      const memory = sampleMemory({ service: pid }, 20);
      const start = performance.now();
      const bytes = await run();
      const seconds = (performance.now() - start) / 1000;
      const peak = memory.stop().service.peakRssMiB;
      const growth = peak !== null && baseline !== null ? round1(peak - baseline) : null;
      const result: PhaseResult = {
        phase: name,
        bytes,
        seconds: Math.round(seconds * 100) / 100,
        throughputMiBs: round1(bytes / MIB / seconds),
        peakRssMiB: peak,
        growthMiB: growth,
        ok: growth === null || growth < options.maxGrowthMiB,
      };
      results.push(result);
      log(JSON.stringify(result));
    };

    const uploadHash = createHash('sha256');
    let id = '';
    let expected = '';
    await phase('upload (multipart, streamed to storage)', async () => {
      const answer = await upload(baseUrl, INVOICE_PATH, headers, fileChunks(size, uploadHash));
      if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body}`);
      const body = JSON.parse(answer.body) as { id: string; size: number; sha256: string };
      expected = uploadHash.digest('hex');
      if (body.size !== size || body.sha256 !== expected) throw new Error(`stored ${body.size} bytes, sha256 ${body.sha256}; sent ${size}, ${expected}`);
      id = body.id;
      return size;
    });
    for (const [name, kind, accept] of [
      ['download raw (application/octet-stream)', 'raw', 'application/octet-stream'],
      ['download Base64 (text/plain, the default)', 'base64', 'text/plain'],
      ['download JSON with Base64 content', 'json', 'application/json'],
    ] as const) {
      await phase(name, async () => {
        const got = await download(`${baseUrl}/v1/attachment/${id}`, { ...headers, accept }, kind);
        if (got.sha256 !== expected) throw new Error(`${name}: the decoded bytes differ from the upload`);
        return got.bytes;
      });
    }
    const lifetime = sampleMemory({ service: pid }).stop().service.lifetimePeakRssMiB;

    return {
      machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
      fileMiB: options.sizeMiB,
      driver: options.driver,
      serviceRssAfterWarmupMiB: baseline,
      serviceLifetimePeakRssMiB: lifetime,
      maxGrowthMiB: options.maxGrowthMiB,
      phases: results,
    };
  } finally {
    await service?.stop('SIGTERM');
    if (serverUrl) await dropDatabase(serverUrl, databaseName).catch(() => undefined);
    await broker?.stop();
    await embedded?.stop();
    await s3?.close();
    await Promise.all(owners.map((owner) => owner.close()));
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  }
}

export function markdown(report: AttachmentsBenchReport): string {
  return [
    `${report.fileMiB} MiB file, ${report.driver} driver. Service RSS after warm-up ${report.serviceRssAfterWarmupMiB ?? '-'} MiB; ` +
      `lifetime peak (VmHWM) ${report.serviceLifetimePeakRssMiB ?? '-'} MiB.`,
    '',
    `| phase | MiB on the wire | seconds | MiB/s | service peak RSS MiB | growth MiB (limit ${report.maxGrowthMiB}) |`,
    '|---|---|---|---|---|---|',
    ...report.phases.map(
      (p) =>
        `| ${p.phase} | ${round1(p.bytes / MIB)} | ${p.seconds} | ${p.throughputMiBs} | ${p.peakRssMiB ?? '-'} | ${p.growthMiB ?? '-'} ${p.ok ? '' : '(over)'} |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const report = await runAttachmentsMemoryBench(options);
  process.stdout.write(`\n${markdown(report)}\n`);
  if (options.out) writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  if (report.phases.some((phase) => !phase.ok)) {
    process.stderr.write(`bench:attachments: RSS grew by ${options.maxGrowthMiB} MiB or more in some phase\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench:attachments failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
