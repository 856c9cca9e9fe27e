import { GroupCoordinator } from '../group/group-coordinator';
import { TopicStore } from '../log/topic-store';
import { KafkaDevBrokerLogger } from '../logger';
import { ApiKey } from '../protocol/api-keys';
import { RequestReader, ResponseWriter } from '../protocol/codec';

/** How clients reach this broker; it is the only node, the controller and every coordinator. */
export interface BrokerNode {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

/** What the handlers share: state outlives connections (and, with keepState, a restart). */
export interface BrokerContext {
  readonly node: BrokerNode;
  readonly topics: TopicStore;
  readonly groups: GroupCoordinator;
  readonly autoCreateTopics: boolean;
  readonly logger: KafkaDevBrokerLogger;
}

export interface RequestContext {
  readonly broker: BrokerContext;
  readonly apiVersion: number;
  readonly clientId: string;
  readonly clientHost: string;
}

/**
 * One Kafka API. Each handler reads the request body (the header is already consumed) in the
 * exact version(s) it advertises and mirrors kafkajs's decoder for the response.
 */
export interface ApiHandler {
  readonly apiKey: ApiKey;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** The response body, or null when the client expects no response (Produce with acks=0). */
  handle(request: RequestReader, context: RequestContext): Promise<ResponseWriter | null>;
}

export const THROTTLE_TIME_MS = 0;
