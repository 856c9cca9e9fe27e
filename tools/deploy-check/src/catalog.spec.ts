import { GATEWAY, SERVICES } from '@erp/dev';
import { deployedApps, REPO_ROOT, upstreamsOf } from './catalog';

const apps = deployedApps();

describe('the catalog calls (tools/dev/src/services.ts `calls`)', () => {
  it('lists every service whose URL variable an app declares, so its network policy lets the call through', () => {
    for (const app of apps) {
      const declared = apps.filter((other) => other.gatewayVariable && other.name !== app.name && app.variables.includes(other.gatewayVariable));
      expect([app.name, declared.filter((other) => !app.calls.includes(other.name)).map((other) => other.name)]).toEqual([app.name, []]);
    }
  });

  it('gives the gateway every service, and the services the calls their catalog entries name', () => {
    const gateway = apps.find((app) => app.isGateway);
    expect(gateway?.calls.sort()).toEqual(SERVICES.map((service) => service.name).sort());
    expect(apps.find((app) => app.name === 'sales-orders-v3')?.calls).toEqual(['customers-v1']);
    expect(apps.find((app) => app.name === 'attachments-v1')?.calls).toEqual(['customers-v1', 'supplier-invoices-v1']);
    expect(upstreamsOf(gateway as NonNullable<typeof gateway>, apps).map((u) => u.variable).sort()).toEqual(
      SERVICES.map((service) => service.gatewayVariable).sort(),
    );
  });

  it('refuses a call to an app that is not in the catalog', () => {
    const [first, ...rest] = SERVICES;
    expect(() => deployedApps(REPO_ROOT, [{ ...(first as NonNullable<typeof first>), calls: ['orders-v9'] }, ...rest, GATEWAY])).toThrow(/calls orders-v9/);
  });
});
