import { type DeployedApp, METRICS_PORT } from './catalog';
import type { EgressTarget, Environment, NetworkPeer } from './environments';
import type { Manifest } from './kubernetes';

/** The container ports by name, as the Deployments declare them (NetworkPolicy ports name them). */
export const HTTP_PORT_NAME = 'http';
export const METRICS_PORT_NAME = 'metrics';
export const DEFAULT_DENY = 'default-deny-all';
/** Apps whose own work reaches the internet: webhook-publisher POSTs to its subscribers. */
export const INTERNET_CLIENTS = ['webhook-publisher'];

const appPods = (name: string) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/name': name } } });
const policy = (name: string, spec: Record<string, unknown>): Manifest => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, labels: { 'app.kubernetes.io/part-of': 'erp' } },
  spec,
});

/**
 * The base's policies, true in every cluster: nothing in the namespace talks to anything unless a
 * policy allows it, and the apps talk to each other only along the catalog's `calls` (the gateway
 * calls every service). NetworkPolicies add up, so the overlay's policies (below) open what
 * depends on the cluster without repeating these.
 */
export function basePolicies(apps: DeployedApp[]): Manifest[] {
  const callersOf = (callee: DeployedApp) => apps.filter((caller) => caller.calls.includes(callee.name));
  return [
    policy(DEFAULT_DENY, { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }),
    ...apps.map((app) => {
      const callers = callersOf(app);
      const callees = apps.filter((callee) => app.calls.includes(callee.name));
      return policy(`${app.name}-calls`, {
        ...appPods(app.name),
        policyTypes: ['Ingress', 'Egress'],
        ingress: callers.length > 0 ? [{ from: callers.map((caller) => appPods(caller.name)), ports: [{ port: HTTP_PORT_NAME, protocol: 'TCP' }] }] : [],
        egress: callees.length > 0 ? [{ to: callees.map((callee) => appPods(callee.name)), ports: [{ port: HTTP_PORT_NAME, protocol: 'TCP' }] }] : [],
      });
    }),
  ];
}

/** The infrastructure an app reaches, from what its config declares. */
export function egressTargetsOf(app: DeployedApp, env: Environment): Array<[string, EgressTarget]> {
  const net = env.network;
  const uses = (variable: string) => app.variables.includes(variable);
  return [
    ['dns', net.dns],
    ...(app.database ? [['postgres', net.postgres] as [string, EgressTarget]] : []),
    ...(uses('KAFKA_BROKERS') ? [['kafka', net.kafka] as [string, EgressTarget]] : []),
    ...(uses('S3_BUCKET') ? [['objectStorage', net.objectStorage] as [string, EgressTarget]] : []),
    ...(uses('OTEL_EXPORTER_OTLP_ENDPOINT') ? [['otlpCollector', net.otlpCollector] as [string, EgressTarget]] : []),
    ...(uses('AUTH_JWKS_URL') ? [['identityProvider', net.identityProvider] as [string, EgressTarget]] : []),
    ...(INTERNET_CLIENTS.includes(app.name) ? [['internet', net.internet] as [string, EgressTarget]] : []),
  ];
}

const egressRule = ({ to, ports }: EgressTarget) => ({
  to,
  ...(ports ? { ports: ports.map(({ port, protocol }) => ({ port, protocol: protocol ?? 'TCP' })) } : {}),
});

/**
 * The overlay's policies, one per app, from the environment's selectors and CIDRs: its metrics
 * port from the monitoring namespace, the gateway's API port from the ingress controller, and
 * egress to the infrastructure it uses (DNS, PostgreSQL, Kafka, object storage, the OTLP
 * collector, the identity provider; the internet for webhook-publisher).
 */
export function environmentPolicies(env: Environment, apps: DeployedApp[]): Manifest[] {
  const neighbours = env.network.neighbours.map((name) =>
    policy(`neighbour-${name}`, {
      ...appPods(name),
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ podSelector: {} }] }],
      egress: [{}],
    }),
  );
  return [...neighbours, ...apps.map((app) => {
    const ingress: Array<{ from: NetworkPeer[]; ports: unknown[] }> = [
      { from: env.network.monitoring, ports: [{ port: METRICS_PORT_NAME, protocol: 'TCP' }] },
    ];
    if (app.isGateway) ingress.push({ from: env.network.ingressController, ports: [{ port: HTTP_PORT_NAME, protocol: 'TCP' }] });
    return policy(`${app.name}-platform`, {
      ...appPods(app.name),
      policyTypes: ['Ingress', 'Egress'],
      ingress,
      egress: egressTargetsOf(app, env).map(([, target]) => egressRule(target)),
    });
  })];
}

export { METRICS_PORT };
