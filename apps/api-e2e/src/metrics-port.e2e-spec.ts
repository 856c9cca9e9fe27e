import { freePort } from '@erp/database';
import { GATEWAY, type SpawnedProcess, spawnTs, waitForReady } from '@erp/dev';
import { TestAuth } from '@erp/testing';

/**
 * METRICS_PORT, as the Kubernetes manifests set it: the real gateway process serves `/metrics` on
 * that port only, so its public port (the one its Service and the ingress expose) does not.
 */
describe('the gateway with METRICS_PORT set', () => {
  const auth = new TestAuth();
  let gateway: SpawnedProcess;
  let publicUrl: string;
  let metricsUrl: string;

  beforeAll(async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    publicUrl = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    gateway = spawnTs(
      GATEWAY.name,
      `${GATEWAY.dir}/src/main.ts`,
      { ...process.env, ...auth.serviceEnv, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: String(metricsPort), LOG_LEVEL: 'warn' },
      { quiet: true, nodeArgs: GATEWAY.nodeArgs },
    );
    await waitForReady(`${publicUrl}/health/live`, gateway, 120_000);
  }, 150_000);

  afterAll(() => gateway?.stop());

  it('does not answer /metrics on its public port', async () => {
    const response = await fetch(`${publicUrl}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('http_request_duration_seconds');
  });

  it('serves the registry on the metrics port, with the requests of the public port in it', async () => {
    await fetch(`${publicUrl}/health/live`);
    const response = await fetch(`${metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health\/live",status_code="200"\} [1-9]/);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('answers nothing but /metrics on the metrics port', async () => {
    expect((await fetch(`${metricsUrl}/health/live`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/v1/customer`)).status).toBe(404);
  });

  it('closes the metrics port with the rest on SIGTERM, exiting 0', async () => {
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    await expect(fetch(`${metricsUrl}/metrics`)).rejects.toThrow();
  });
});
