import { join } from 'node:path';
import { BlockList } from 'node:net';
import { deployedApps, METRICS_PORT, REPO_ROOT } from './catalog';
import { ENVIRONMENTS } from './environments';
import type { Manifest } from './kubernetes';
import { renderKustomization } from './kustomize';

/**
 * The rendered overlays' NetworkPolicies, evaluated as Kubernetes does: a connection passes when
 * the source's egress and the destination's ingress both allow it, every pod of the namespace being
 * selected by the default deny; policies add up. Peers are pods (by pod and namespace labels) or,
 * outside the cluster, addresses (ipBlock).
 */
type Labels = Record<string, string>;
interface Endpoint {
  namespace?: string;
  labels?: Labels;
  /** Named container ports of a pod (the policies name `http` and `metrics`). */
  ports?: Record<string, number>;
  ip?: string;
}
interface Peer {
  podSelector?: { matchLabels?: Labels };
  namespaceSelector?: { matchLabels?: Labels };
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: Array<{ port: number | string; protocol?: string }>;
}
type Policy = Manifest & { metadata: { namespace: string }; spec: { podSelector: { matchLabels?: Labels }; policyTypes: string[]; ingress?: Rule[]; egress?: Rule[] } };

const matches = (selector: { matchLabels?: Labels } | undefined, labels: Labels = {}) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
const inBlock = (ip: string, block: NonNullable<Peer['ipBlock']>) => {
  const list = (cidr: string) => {
    const [address, prefix] = cidr.split('/');
    const blocks = new BlockList();
    blocks.addSubnet(address as string, Number(prefix));
    return blocks;
  };
  return list(block.cidr).check(ip) && !(block.except ?? []).some((cidr) => list(cidr).check(ip));
};

function peerMatches(peer: Peer, other: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock) return other.ip !== undefined && inBlock(other.ip, peer.ipBlock);
  if (other.namespace === undefined) return false;
  const namespaceOk = peer.namespaceSelector
    ? matches(peer.namespaceSelector, { 'kubernetes.io/metadata.name': other.namespace })
    : other.namespace === policyNamespace;
  return namespaceOk && (!peer.podSelector || matches(peer.podSelector, other.labels));
}

function portMatches(rule: Rule, destination: Endpoint, port: number, protocol: string): boolean {
  if (!rule.ports) return true;
  return rule.ports.some(
    (p) => (p.protocol ?? 'TCP') === protocol && (typeof p.port === 'number' ? p.port === port : destination.ports?.[p.port] === port),
  );
}

function allows(policies: Policy[], direction: 'Ingress' | 'Egress', self: Endpoint, other: Endpoint, destination: Endpoint, port: number, protocol: string) {
  if (self.namespace === undefined) return true; // outside the cluster: no policy of ours applies
  const selecting = policies.filter(
    (p) => p.metadata.namespace === self.namespace && p.spec.policyTypes.includes(direction) && matches(p.spec.podSelector, self.labels),
  );
  if (selecting.length === 0) return true;
  return selecting.some((p) =>
    ((direction === 'Ingress' ? p.spec.ingress : p.spec.egress) ?? []).some(
      (rule) =>
        // A rule without peers allows every peer, inside the cluster or not.
        (rule[direction === 'Ingress' ? 'from' : 'to']?.some((peer) => peerMatches(peer, other, p.metadata.namespace)) ?? true) &&
        portMatches(rule, destination, port, protocol),
    ),
  );
}

const apps = deployedApps();

describe.each(ENVIRONMENTS.map((env) => [env.name, env] as const))('network policies of the %s overlay', (_name, env) => {
  const objects = renderKustomization(join(REPO_ROOT, 'docker/kubernetes/overlays', env.name));
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as Policy[];
  const pod = (app: string): Endpoint => {
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === app) as Manifest;
    const template = (deployment.spec as { template: { metadata: { labels: Labels }; spec: { containers: Array<{ ports: Array<{ name: string; containerPort: number }> }> } } }).template;
    const ports = Object.fromEntries(template.spec.containers[0]?.ports.map((p) => [p.name, p.containerPort]) ?? []);
    return { namespace: env.namespace, labels: template.metadata.labels, ports };
  };
  const connects = (from: Endpoint, to: Endpoint, port: number | 'http' | 'metrics', protocol = 'TCP') => {
    const number = typeof port === 'number' ? port : (to.ports?.[port] as number);
    return allows(policies, 'Egress', from, to, to, number, protocol) && allows(policies, 'Ingress', to, from, to, number, protocol);
  };
  const elsewhere = (namespace: string, name: string): Endpoint => ({ namespace, labels: { 'app.kubernetes.io/name': name } });
  const ingressController = elsewhere('ingress-nginx', 'ingress-nginx');
  const prometheus = elsewhere('monitoring', 'prometheus');
  const dns = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
  const database = env.name === 'dev' ? elsewhere(env.namespace, 'postgres') : { ip: '10.20.0.5' };
  const publicHost = { ip: '203.0.113.10' };

  it('denies by default every pod of the namespace, both ways', () => {
    const deny = policies.find((p) => p.metadata.name === 'default-deny-all');
    expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    expect(connects(elsewhere(env.namespace, 'something-else'), pod('customers-v1'), 'http')).toBe(false);
    expect(connects(elsewhere('default', 'any'), pod('api-gateway'), 'http')).toBe(false);
    // A neighbour (dev's own PostgreSQL, Kafka) is out of the deny, and no more open than that.
    for (const name of env.network.neighbours) {
      expect([name, connects(elsewhere(env.namespace, name), publicHost, 1234)]).toEqual([name, true]);
      expect([name, connects(elsewhere('default', 'any'), elsewhere(env.namespace, name), 1234)]).toEqual([name, false]);
    }
  });

  it.each(apps.map((app) => [app.name, app] as const))('lets %s call exactly the services of its `calls` on their API port', (_app, app) => {
    for (const other of apps.filter((o) => o.name !== app.name)) {
      expect([app.name, other.name, connects(pod(app.name), pod(other.name), 'http')]).toEqual([app.name, other.name, app.calls.includes(other.name)]);
    }
  });

  it('lets the ingress controller reach the gateway, and nothing else', () => {
    expect(connects(ingressController, pod('api-gateway'), 'http')).toBe(true);
    expect(connects(ingressController, pod('api-gateway'), 'metrics')).toBe(false);
    for (const app of apps.filter((a) => !a.isGateway)) expect([app.name, connects(ingressController, pod(app.name), 'http')]).toEqual([app.name, false]);
  });

  it(`lets the monitoring namespace scrape the metrics port (${METRICS_PORT}) of every app, and only that`, () => {
    for (const app of apps) {
      expect([app.name, connects(prometheus, pod(app.name), 'metrics'), connects(prometheus, pod(app.name), 'http')]).toEqual([app.name, true, false]);
      expect([app.name, connects(ingressController, pod(app.name), 'metrics')]).toEqual([app.name, false]);
    }
  });

  it('lets each app reach DNS, and PostgreSQL only where it has a database', () => {
    for (const app of apps) {
      expect([app.name, connects(pod(app.name), dns, 53, 'UDP')]).toEqual([app.name, true]);
      expect([app.name, connects(pod(app.name), database, 5432)]).toEqual([app.name, Boolean(app.database)]);
    }
  });

  it('lets webhook-publisher reach public addresses on any port, never private or metadata ones', () => {
    const publisher = pod('webhook-publisher');
    expect(connects(publisher, publicHost, 8443)).toBe(true);
    for (const ip of ['10.1.2.3', '192.168.1.10', '172.20.0.1', '169.254.169.254', '100.64.0.1']) {
      expect([ip, connects(publisher, { ip }, 443)]).toEqual([ip, false]);
    }
    for (const app of apps.filter((a) => a.name !== 'webhook-publisher')) {
      expect([app.name, connects(pod(app.name), publicHost, 8443)]).toEqual([app.name, false]);
    }
  });
});
