import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { BrokerContext, handleRequest } from './api';
import { GroupCoordinator } from './group/group-coordinator';
import { invalidTopicNameReason, TopicStore } from './log/topic-store';
import { KafkaDevBrokerLogger, warningsOnlyLogger } from './logger';
import { BrokerConnection } from './server/connection';

export interface KafkaDevBrokerOptions {
  /** TCP port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Host name put in Metadata for clients to connect to. Default: `host`, or 127.0.0.1 for a wildcard host. */
  advertisedHost?: string;
  /** Partitions of auto-created topics and of CreateTopics without a count. Default 3. */
  defaultPartitions?: number;
  /** Create unknown topics on Metadata (when the client allows it) and on Produce. Default true. */
  autoCreateTopics?: boolean;
  /**
   * Topics that exist from the start, with `defaultPartitions` each, as a cluster's provisioned
   * topics do: a consumer that subscribes before anything was produced finds its topic instead of
   * retrying on UnknownTopicOrPartition (which kafkajs logs as an error).
   */
  topics?: string[];
  /** Default: warnings and errors on the console, nothing else. */
  logger?: KafkaDevBrokerLogger;
}

export interface KafkaDevBrokerStopOptions {
  /**
   * Keep topics, their records, committed offsets and producer ids for a later restart(), like a
   * real broker's disk. Group membership is always dropped: consumers rejoin after the restart.
   */
  keepState?: boolean;
}

export interface KafkaDevBroker {
  /** Bootstrap list, e.g. ["127.0.0.1:54321"]: kafkajs's `brokers`, kcat's `-b` (joined with commas). */
  readonly brokers: string[];
  readonly host: string;
  /** The actual port, also when 0 was asked for; restart() listens on it again. */
  readonly port: number;
  readonly running: boolean;
  /** Stops listening and closes every client connection. Idempotent. */
  stop(options?: KafkaDevBrokerStopOptions): Promise<void>;
  /** Listens again on the same host and port (after stop(); if running, stops with keepState first). */
  restart(): Promise<void>;
}

/** The only node of the cluster; 1 rather than 0 so no client can mistake the id for "unset". */
const NODE_ID = 1;
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PARTITIONS = 3;

/** Starts a single-node, in-memory broker speaking the Kafka protocol subset kafkajs 2.x and kcat use. */
export async function startKafkaDevBroker(options: KafkaDevBrokerOptions = {}): Promise<KafkaDevBroker> {
  const broker = new DevBroker(options);
  await broker.listen(options.port ?? 0);
  return broker;
}

class DevBroker implements KafkaDevBroker {
  readonly host: string;
  private readonly node: { nodeId: number; host: string; port: number };
  private readonly context: BrokerContext;
  private readonly logger: KafkaDevBrokerLogger;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly provisioned: string[];

  constructor(options: KafkaDevBrokerOptions) {
    this.provisioned = [...new Set(options.topics ?? [])];
    this.host = options.host ?? DEFAULT_HOST;
    this.logger = options.logger ?? warningsOnlyLogger;
    const defaultPartitions = options.defaultPartitions ?? DEFAULT_PARTITIONS;
    if (!Number.isInteger(defaultPartitions) || defaultPartitions < 1) {
      throw new RangeError(`defaultPartitions must be a positive integer, got ${defaultPartitions}`);
    }
    this.node = { nodeId: NODE_ID, host: options.advertisedHost ?? advertisable(this.host), port: 0 };
    this.context = {
      node: this.node,
      topics: new TopicStore(defaultPartitions),
      groups: new GroupCoordinator(this.logger),
      autoCreateTopics: options.autoCreateTopics ?? true,
      logger: this.logger,
    };
    for (const topic of this.provisioned) {
      const invalid = invalidTopicNameReason(topic);
      if (invalid) throw new RangeError(`topic "${topic}": ${invalid}`);
    }
    this.provisionTopics();
  }

  get port(): number {
    return this.node.port;
  }

  get brokers(): string[] {
    return [`${this.node.host}:${this.node.port}`];
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async listen(port: number): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: this.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.logger.error('server error', { error: error.message }));
    this.server = server;
    this.node.port = (server.address() as AddressInfo).port;
    this.logger.info('listening', { brokers: this.brokers });
  }

  /** The topics of `options.topics` that are missing (all of them at first and after a stop without keepState). */
  private provisionTopics(): void {
    for (const topic of this.provisioned) if (!this.context.topics.partitions(topic)) this.context.topics.create(topic);
  }

  async stop(options: KafkaDevBrokerStopOptions = {}): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // server.close() only stops accepting; clients must see their connections drop, as with a dead broker.
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.context.topics.releaseWaiters();
    if (options.keepState) {
      this.context.groups.dropAllMembers();
    } else {
      this.context.groups.clear();
      this.context.topics.clear();
      this.provisionTopics();
    }
    await closed;
    this.logger.info('stopped', { keepState: options.keepState ?? false });
  }

  async restart(): Promise<void> {
    if (this.running) await this.stop({ keepState: true });
    await this.listen(this.node.port);
  }

  private accept(socket: Socket): void {
    if (!this.running) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    new BrokerConnection(
      socket,
      (header, body, clientHost) => handleRequest(header, body, this.context, clientHost),
      this.logger,
    );
  }
}

/** A wildcard bind address is not something a client can connect to. */
function advertisable(host: string): string {
  return host === '0.0.0.0' || host === '::' ? DEFAULT_HOST : host;
}
