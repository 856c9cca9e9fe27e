import type { PlannedPort } from './start/port-check';
import { portVariable, type ServiceSpec } from './services';
import type { SystemOptions } from './system';

/** Where `npm start` runs the dev broker, so tools on the host find it where Kafka usually is. */
export const DEV_BROKER_DEFAULT_PORT = 9092;

/** Each service's first port with fixed ports, and every port the system will listen on. */
export function fixedPortPlan(options: SystemOptions, selected: ServiceSpec[], replicas: number): { first: Record<string, number>; planned: PlannedPort[] } {
  const first: Record<string, number> = {};
  const planned: PlannedPort[] = [];
  for (const service of selected) {
    first[service.name] = options.fixedPorts?.[service.name] ?? service.defaultPort;
    for (let replica = 0; replica < replicas; replica++) {
      const what = replica === 0 ? service.name : `${service.name}#${replica + 1}`;
      planned.push({ port: first[service.name] + 10 * replica, host: '127.0.0.1', what, variable: portVariable(service) });
    }
  }
  if (options.gatewayPort !== 0) planned.push({ port: options.gatewayPort, host: '0.0.0.0', what: 'the gateway', variable: 'PORT' });
  if (!options.kafkaBrokers?.length) {
    const port = options.kafkaDevBrokerPort ?? DEV_BROKER_DEFAULT_PORT;
    planned.push({ port, host: '127.0.0.1', what: 'the Kafka dev broker', variable: 'KAFKA_DEV_BROKER_PORT (or KAFKA_BROKERS for a real Kafka)' });
  }
  return { first, planned };
}
