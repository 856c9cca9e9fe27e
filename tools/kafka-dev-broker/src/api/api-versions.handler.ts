import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/**
 * ApiVersions v0-2 (kafkajs tries v2 first). Each API is advertised with exactly the versions its
 * handler reads, and kafkajs uses min(its newest, our max).
 */
export function createApiVersionsHandler(supported: () => readonly ApiHandler[]): ApiHandler {
  return {
    apiKey: ApiKey.ApiVersions,
    minVersion: 0,
    maxVersion: 2,
    async handle(_request, { apiVersion }) {
      return apiVersionsResponse(apiVersion, ErrorCode.None, supported());
    },
  };
}

/** Also used, in v0 format, to answer an ApiVersions version we do not know (as Kafka does). */
export function apiVersionsResponse(
  apiVersion: number,
  errorCode: ErrorCode,
  supported: readonly ApiHandler[],
): ResponseWriter {
  const response = new ResponseWriter()
    .int16(errorCode)
    .array(supported, (writer, api) => writer.int16(api.apiKey).int16(api.minVersion).int16(api.maxVersion));
  if (apiVersion >= 1) response.int32(THROTTLE_TIME_MS);
  return response;
}
