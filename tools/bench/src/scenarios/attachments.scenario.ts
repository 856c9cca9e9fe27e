import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { spawnBaseline } from '../baseline/spawn-baseline';
import { download, drain, fileChunks, upload } from '../attachments/transfer';
import { round, type LoadMeasurement } from '../framework/load';
import { sampleMemory, type ProcessMemory } from '../framework/process-memory';
import { check, type BenchScenario, type ScenarioCase, type TargetCheck } from '../framework/scenario';
import { measureTransfers, type TransferTarget } from '../framework/transfers';

const MIB = 1024 * 1024;
const SERVICE = 'attachments-v1';
const GATEWAY = 'api-gateway';
const FLOOR = 'attachments-floor';
const COMPANY = 'bench-attachments';
const INVOICE = 'BENCH-ATT-1';
const UPLOAD_PATH = `/v1/supplierInvoice/${INVOICE}/Attachment`;
const DEFAULT_SIZES_MIB = [1, 100];
/** Read stream chunk for the files the bench sends and copies (the same for every target). */
const READ_CHUNK = 256 * 1024;
/** Where the system stores attachment bytes during a bench run (removed by the scenario). */
const STORAGE_DIR = join(tmpdir(), `erp-bench-attachments-${process.pid}`);

const DOWNLOADS = [
  ['download raw', 'application/octet-stream', 'raw'],
  ['download Base64', 'text/plain', 'base64'],
] as const;

function sizeLabel(mib: number): string {
  return `${mib} MiB`;
}

/**
 * Scenario 4: attachment upload (multipart, streamed to the filesystem driver) and download (raw
 * bytes, and the default Base64 text) of 1 MiB and 100 MiB files, one transfer at a time, through
 * the gateway and directly against attachments-v1; the baseline is copying the same file on local
 * disk with fs streams in the same run (`disk copy`). A second reference, the `node floor`
 * (baseline/attachments-floor.ts), is one HTTP stream into and out of a file in a bare node:http
 * process: what Node itself achieves here, next to what the kernel alone does. Figures are file
 * MiB/s. Before measuring, each download representation is checked byte for byte (SHA-256)
 * through both paths and from the floor. RSS growth
 * is each process's peak while one size ran over its RSS just before.
 *
 * Options: `--attachments.sizes-mib=1,100`.
 */
export const attachmentsScenario: BenchScenario = {
  name: 'attachments',
  title: 'POST /v1/supplierInvoice/{id}/Attachment and GET /v1/attachment/{id}',
  services: [SERVICE],
  systemEnv: { ATTACHMENT_MAX_BYTES: String(1024 * MIB), STORAGE_DRIVER: 'filesystem', STORAGE_DIR },
  async run(context) {
    const sizes = context.options['attachments.sizes-mib']?.split(',').map(Number) ?? DEFAULT_SIZES_MIB;
    const sql = new Client({ connectionString: context.databaseUrls[SERVICE] });
    await sql.connect();
    try {
      // The invoice is made known directly, as its SUPPLIERINVOICE_CREATED event would.
      await sql.query(
        `INSERT INTO attachment_owners (company_id, endpoint, object_id, known_since) VALUES ($1, 'supplierInvoice', $2, now())
         ON CONFLICT DO NOTHING`,
        [COMPANY, INVOICE],
      );
    } finally {
      await sql.end();
    }
    const token = await signDevToken(context.keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read erp:write', expiresInSeconds: 24 * 3600 });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'erp-bench' };
    const urls = { gateway: context.gatewayUrl, direct: context.serviceUrls[SERVICE] };
    const work = await mkdtemp(join(tmpdir(), 'erp-bench-files-'));
    const floor = await spawnBaseline(FLOOR, 'tools/bench/src/baseline/attachments-floor.main.ts', { STORAGE_DIR: join(work, 'floor') });
    const pids = { ...context.pids, [FLOOR]: floor.pid };
    const cases: ScenarioCase[] = [];
    const checks: TargetCheck[] = [];
    const notes: string[] = [];
    try {
      for (const sizeMiB of sizes) {
        const size = Math.round(sizeMiB * MIB);
        const label = sizeLabel(sizeMiB);
        const source = join(work, `file-${sizeMiB}`);
        const hash = createHash('sha256');
        await pipeline(Readable.from(fileChunks(size, hash)), createWriteStream(source));
        const sha256 = hash.digest('hex');
        const read = () => createReadStream(source, { highWaterMark: READ_CHUNK });

        // One upload to read back; every representation must come back as the same bytes both ways.
        const first = await upload(urls.gateway, UPLOAD_PATH, headers, read());
        if (first.status !== 201) throw new Error(`attachments ${label}: upload answered ${first.status}: ${first.body.slice(0, 300)}`);
        const stored = JSON.parse(first.body) as { id: string; size: number; sha256: string };
        if (stored.size !== size || stored.sha256 !== sha256) throw new Error(`attachments ${label}: stored ${stored.size} bytes, sha256 ${stored.sha256}`);
        for (const [name, accept, kind] of DOWNLOADS) {
          for (const base of Object.values(urls)) {
            const got = await download(`${base}/v1/attachment/${stored.id}`, { ...headers, accept }, kind);
            if (got.sha256 !== sha256) throw new Error(`attachments ${label}: ${name} from ${base} differs from the upload`);
          }
        }

        const floorFile = await upload(floor.url, '/files', {}, read(), { raw: true });
        const floorId = (JSON.parse(floorFile.body) as { id: string }).id;
        for (const [name, accept, kind] of DOWNLOADS) {
          const got = await download(`${floor.url}/files/${floorId}`, { accept }, kind);
          if (got.sha256 !== sha256) throw new Error(`attachments ${label}: ${name} from the node floor differs from the upload`);
        }

        // The floor takes the file as the bare body (it has no multipart parser).
        const uploadTo = (base: string, path = UPLOAD_PATH, raw = false) => async () => {
          const answer = await upload(base, path, headers, read(), { raw });
          if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          return size;
        };
        const downloadFrom = (base: string, accept: string, path = `/v1/attachment/${stored.id}`) => async () => {
          const got = await drain(`${base}${path}`, { ...headers, accept });
          if (got.status !== 200) throw new Error(`download answered ${got.status}`);
          return size;
        };
        const copy = join(work, `copy-${sizeMiB}`);
        const targets: TransferTarget[] = [
          { name: 'disk copy', transfer: async () => (await pipeline(read(), createWriteStream(copy)), size) },
          { name: 'upload gateway', transfer: uploadTo(urls.gateway) },
          { name: 'upload direct', transfer: uploadTo(urls.direct) },
          { name: 'upload node floor', transfer: uploadTo(floor.url, '/files', true) },
          ...DOWNLOADS.flatMap(([name, accept]) => [
            { name: `${name} gateway`, transfer: downloadFrom(urls.gateway, accept) },
            { name: `${name} direct`, transfer: downloadFrom(urls.direct, accept) },
            { name: `${name} node floor`, transfer: downloadFrom(floor.url, accept, `/files/${floorId}`) },
          ]),
        ];
        const idle = sampleMemory(context.pids).stop();
        const sampling = sampleMemory(context.pids, 20);
        const measured = await measureTransfers({ ...context, pids }, targets);
        const memory = sampling.stop();
        const byName = new Map(measured.map((m) => [m.target, m]));
        const disk = byName.get('disk copy') as LoadMeasurement;
        for (const operation of ['upload', ...DOWNLOADS.map(([name]) => name)]) {
          const gateway = { ...(byName.get(`${operation} gateway`) as LoadMeasurement), target: 'gateway' };
          const direct = { ...(byName.get(`${operation} direct`) as LoadMeasurement), target: 'direct' };
          const nodeFloor = { ...(byName.get(`${operation} node floor`) as LoadMeasurement), target: 'node floor' };
          const mibs = (m: LoadMeasurement) => m.bytesPerSecond / MIB;
          context.log(
            `attachments ${operation} ${label}: gateway ${mibs(gateway).toFixed(1)} MiB/s, direct ${mibs(direct).toFixed(1)}, ` +
              `node floor ${mibs(nodeFloor).toFixed(1)}, disk copy ${mibs(disk).toFixed(1)}`,
          );
          cases.push({
            name: `${operation} ${label}`,
            facts: { fileBytes: size },
            measurements: [gateway, direct, nodeFloor, { ...disk, target: 'baseline' }],
            ratios: {
              'gateway/baseline': round(mibs(gateway) / mibs(disk)),
              'direct/baseline': round(mibs(direct) / mibs(disk)),
              'gateway/direct': round(mibs(gateway) / mibs(direct)),
              'direct/node floor': round(mibs(direct) / mibs(nodeFloor)),
              'node floor/baseline': round(mibs(nodeFloor) / mibs(disk)),
            },
            memory,
          });
        }
        const growth = (name: string) => growthMiB(idle[name], memory[name]);
        notes.push(
          `${label}: RSS before → peak while transferring: ${[SERVICE, GATEWAY]
            .map((p) => `${p} ${idle[p]?.peakRssMiB ?? '–'} → ${memory[p]?.peakRssMiB ?? '–'} MiB (growth ${growth(p)})`)
            .join(', ')}.`,
        );
        if (sizeMiB === 100) {
          checks.push(check(`${label}: ${SERVICE} RSS growth MiB`, growth(SERVICE), '<=', 64));
          checks.push(check(`${label}: ${GATEWAY} RSS growth MiB`, growth(GATEWAY), '<=', 64));
          for (const c of cases.filter((x) => x.name.endsWith(` ${label}`))) {
            checks.push(check(`${c.name}: gateway MiB/s / disk copy`, c.ratios['gateway/baseline'], '>=', 0.5));
          }
        }
      }
    } finally {
      await floor.stop();
      await rm(work, { recursive: true, force: true });
      await rm(STORAGE_DIR, { recursive: true, force: true });
    }
    return { scenario: this.name, title: this.title, cases, targets: checks, notes, rate: 'MiB/s' };
  },
};

function growthMiB(before: ProcessMemory | undefined, during: ProcessMemory | undefined): number {
  if (before?.peakRssMiB == null || during?.peakRssMiB == null) return NaN;
  return round(during.peakRssMiB - before.peakRssMiB, 1);
}
