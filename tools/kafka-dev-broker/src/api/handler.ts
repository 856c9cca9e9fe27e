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
 * One Kafka API. Each handler reads the request body (the header is already consumed) in every
 * version from minVersion to maxVersion, which is what ApiVersions advertises, and answers in the
 * same version (https://kafka.apache.org/protocol#protocol_messages).
 */
export interface ApiHandler {
  readonly apiKey: ApiKey;
  readonly minVersion: number;
  readonly maxVersion: number;
  /**
   * First version using the flexible encoding (KIP-482: request header v2 with tagged fields,
   * compact strings and arrays); absent when every version served is non-flexible.
   */
  readonly flexibleSince?: number;
  /** The response body, or null when the client expects no response (Produce with acks=0). */
  handle(request: RequestReader, context: RequestContext): Promise<ResponseWriter | null>;
}

export const THROTTLE_TIME_MS = 0;

/**
 * A response that opens with throttle_time_ms from version `throttleSince` on, as most APIs' do
 * (their v0 has no throttle time); the broker never throttles.
 */
export function responseWithThrottle(apiVersion: number, throttleSince: number): ResponseWriter {
  return new ResponseWriter().when(apiVersion >= throttleSince, (writer) => writer.int32(THROTTLE_TIME_MS));
}
