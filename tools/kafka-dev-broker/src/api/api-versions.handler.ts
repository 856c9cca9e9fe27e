import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

const FLEXIBLE_SINCE = 3;

/**
 * ApiVersions v0-3. kafkajs asks with v2, librdkafka with v3 (flexible: compact array, tagged
 * fields; the response header stays v0 so that a client can read it before it knows our versions).
 * Each API is advertised with the versions its handler reads; clients pick the newest both know.
 */
export function createApiVersionsHandler(supported: () => readonly ApiHandler[]): ApiHandler {
  return {
    apiKey: ApiKey.ApiVersions,
    minVersion: 0,
    maxVersion: 3,
    flexibleSince: FLEXIBLE_SINCE,
    async handle(request, { apiVersion }) {
      if (apiVersion < FLEXIBLE_SINCE) return apiVersionsResponse(apiVersion, ErrorCode.None, supported());
      // KIP-511's client software name and version: Kafka only shows them in metrics.
      request.compactNullableString();
      request.compactNullableString();
      request.taggedFields();
      return new ResponseWriter()
        .int16(ErrorCode.None)
        .compactArray(supported(), (writer, api) =>
          writer.int16(api.apiKey).int16(api.minVersion).int16(api.maxVersion).noTaggedFields(),
        )
        .int32(THROTTLE_TIME_MS)
        .noTaggedFields();
    },
  };
}

/**
 * How Kafka answers an ApiVersions version it does not know: v0 format, UNSUPPORTED_VERSION and
 * only its own ApiVersions range, from which the client picks the version to retry with.
 */
export function unsupportedApiVersionsResponse(self: ApiHandler): ResponseWriter {
  return apiVersionsResponse(0, ErrorCode.UnsupportedVersion, [self]);
}

function apiVersionsResponse(
  apiVersion: number,
  errorCode: ErrorCode,
  supported: readonly ApiHandler[],
): ResponseWriter {
  return new ResponseWriter()
    .int16(errorCode)
    .array(supported, (writer, api) => writer.int16(api.apiKey).int16(api.minVersion).int16(api.maxVersion))
    .when(apiVersion >= 1, (writer) => writer.int32(THROTTLE_TIME_MS));
}
