import { testDatabaseServerUrl, testKafkaBrokers } from '@erp/testing';
import { runAttachmentsMemoryBench } from './attachments-memory';

// The benchmark's machinery at a tiny size, so `npm run bench:attachments` cannot rot. The real
// figures come from the 200 MiB run (see tools/bench/README.md).
describe('bench:attachments at tiny size', () => {
  it('uploads and downloads a file through every representation, verifying the bytes and measuring RSS', async () => {
    const report = await runAttachmentsMemoryBench({
      sizeMiB: 8,
      driver: 'filesystem',
      maxGrowthMiB: 64,
      databaseServerUrl: testDatabaseServerUrl(),
      kafkaBrokers: testKafkaBrokers().join(','),
      log: () => undefined,
    });
    expect(report.phases.map((p) => p.phase)).toEqual([
      'upload (multipart, streamed to storage)',
      'download raw (application/octet-stream)',
      'download Base64 (text/plain, the default)',
      'download JSON with Base64 content',
    ]);
    for (const phase of report.phases) {
      expect(phase.bytes).toBeGreaterThanOrEqual(8 * 1024 * 1024);
      expect(phase.throughputMiBs).toBeGreaterThan(0);
    }
  }, 120_000);
});
