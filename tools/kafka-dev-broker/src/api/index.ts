import { ApiKey } from '../protocol/api-keys';
import { RequestReader } from '../protocol/codec';
import { createApiVersionsHandler, unsupportedApiVersionsResponse } from './api-versions.handler';
import { createTopicsHandler } from './create-topics.handler';
import { deleteGroupsHandler } from './delete-groups.handler';
import { deleteTopicsHandler } from './delete-topics.handler';
import { describeGroupsHandler } from './describe-groups.handler';
import { fetchHandler } from './fetch.handler';
import { findCoordinatorHandler } from './find-coordinator.handler';
import { ApiHandler, BrokerContext } from './handler';
import { heartbeatHandler } from './heartbeat.handler';
import { initProducerIdHandler } from './init-producer-id.handler';
import { joinGroupHandler } from './join-group.handler';
import { leaveGroupHandler } from './leave-group.handler';
import { listGroupsHandler } from './list-groups.handler';
import { listOffsetsHandler } from './list-offsets.handler';
import { metadataHandler } from './metadata.handler';
import { offsetCommitHandler } from './offset-commit.handler';
import { offsetFetchHandler } from './offset-fetch.handler';
import { produceHandler } from './produce.handler';
import { syncGroupHandler } from './sync-group.handler';

export type { BrokerContext, BrokerNode } from './handler';

export interface RequestHeader {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
}

/** A request we do not implement; Kafka closes the connection in that case, and so do we. */
export class UnsupportedRequestError extends Error {}

const apiVersionsHandler = createApiVersionsHandler(() => handlers);
const handlers: readonly ApiHandler[] = [
  produceHandler,
  fetchHandler,
  listOffsetsHandler,
  metadataHandler,
  offsetCommitHandler,
  offsetFetchHandler,
  findCoordinatorHandler,
  joinGroupHandler,
  heartbeatHandler,
  leaveGroupHandler,
  syncGroupHandler,
  describeGroupsHandler,
  listGroupsHandler,
  apiVersionsHandler,
  createTopicsHandler,
  deleteTopicsHandler,
  initProducerIdHandler,
  deleteGroupsHandler,
];
const handlersByKey = new Map<number, ApiHandler>(handlers.map((handler) => [handler.apiKey, handler]));

/**
 * Request header v1 (api key, version, correlation id, client id), or v2 (the same plus tagged
 * fields) for a flexible version the broker serves. Past that range nothing after the correlation
 * id is read (an unknown ApiVersions version is answered from the correlation id alone), so a
 * header this broker cannot know the layout of never stops that answer.
 */
export function readRequestHeader(reader: RequestReader): RequestHeader {
  const header = {
    apiKey: reader.int16(),
    apiVersion: reader.int16(),
    correlationId: reader.int32(),
    clientId: reader.nullableString(),
  };
  const handler = handlersByKey.get(header.apiKey);
  const flexibleSince = handler?.flexibleSince;
  const flexible = flexibleSince !== undefined && header.apiVersion >= flexibleSince;
  if (flexible && header.apiVersion <= (handler?.maxVersion ?? -1)) reader.taggedFields();
  return header;
}

/** Runs one request (body positioned after the header) and returns the response body, if any. */
export async function handleRequest(
  header: RequestHeader,
  body: RequestReader,
  broker: BrokerContext,
  clientHost: string,
): Promise<Buffer | null> {
  const { apiKey, apiVersion } = header;
  const handler = handlersByKey.get(apiKey);
  if (!handler || apiVersion < handler.minVersion || apiVersion > handler.maxVersion) {
    // Newer clients open with an ApiVersions version we do not know; answering in v0 lets them downgrade.
    if (apiKey === ApiKey.ApiVersions) return unsupportedApiVersionsResponse(apiVersionsHandler).buffer;
    throw new UnsupportedRequestError(`API key ${apiKey} version ${apiVersion} is not supported`);
  }
  const response = await handler.handle(body, {
    broker,
    apiVersion,
    clientId: header.clientId ?? '',
    clientHost,
  });
  return response ? response.buffer : null;
}
