import { execFileSync } from 'node:child_process';
import { GATEWAY, SERVICES, withCalledServices } from './services';

describe('the service catalog', () => {
  it.each([...SERVICES, GATEWAY].map((service) => [service.name, service.nodeArgs ?? []] as const))(
    "%s: this Node accepts the service's Node flags",
    (_name, nodeArgs) => {
      // Node exits 9 ("bad option") on an unknown or misspelt flag, which would stop the service in
      // every environment; the deploy generators copy these flags into compose and Kubernetes.
      expect(() => execFileSync(process.execPath, [...nodeArgs, '-e', '0'], { stdio: 'pipe' })).not.toThrow();
    },
  );

  it.each(['attachments-v1', 'api-gateway'])('starts %s, which streams file bodies, with a 128 MiB initial old generation', (name) => {
    // BENCHMARKS.md "Scenario 4": without it some processes fall into back-to-back Mark-Compacts.
    const service = [...SERVICES, GATEWAY].find((s) => s.name === name);
    expect(service?.nodeArgs).toContain('--initial-old-space-size=128');
  });

  it.each(['customers-v1', 'supplier-invoices-v1', 'sales-orders-v3', 'webhook-publisher'])('starts %s, which answers JSON, with 8 MiB semi-spaces', (name) => {
    // BENCHMARKS.md "Young generation of the JSON services": V8's own sizing follows the machine's
    // memory (128 MiB of young generation on the bench machine), and the pods' limits follow the bench.
    const service = SERVICES.find((s) => s.name === name);
    expect(service?.nodeArgs).toContain('--max-semi-space-size=8');
  });

  it.each([...SERVICES, GATEWAY].filter((s) => s.memoryMiB).map((s) => [s.name, s.memoryMiB!] as const))(
    '%s: its Kubernetes memory request covers its measured peak and the peak is at most 60 %% of the limit',
    (_name, memory) => {
      // The request is at least the compiled build's peak RSS (BENCHMARKS.md); issue 17's rule.
      expect(memory.request / memory.limit).toBeLessThanOrEqual(0.6);
      expect(memory.request).toBeLessThanOrEqual(memory.limit);
    },
  );

  it('names only services of the catalog, each with a gateway variable, as those a service calls', () => {
    for (const service of SERVICES) {
      for (const called of service.calls ?? []) {
        expect(SERVICES.find((s) => s.name === called)?.gatewayVariable).toEqual(expect.any(String));
        expect(called).not.toBe(service.name);
      }
    }
  });

  it('starts the services a selected service calls with it', () => {
    expect(withCalledServices(['attachments-v1']).map((s) => s.name)).toEqual(['customers-v1', 'supplier-invoices-v1', 'attachments-v1']);
    expect(withCalledServices(['sales-orders-v3', 'webhook-publisher']).map((s) => s.name)).toEqual(['customers-v1', 'sales-orders-v3', 'webhook-publisher']);
    expect(withCalledServices(undefined)).toBe(SERVICES);
  });
});
