import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

const GROUP_COORDINATOR = 0;

/**
 * FindCoordinator v0-2: this broker coordinates every group. v1 adds the key type (v0 always means
 * a group), the throttle time and an error message. Transaction coordinators are refused.
 */
export const findCoordinatorHandler: ApiHandler = {
  apiKey: ApiKey.FindCoordinator,
  minVersion: 0,
  maxVersion: 2,
  async handle(request, { broker, apiVersion }) {
    request.string(); // key: the group id
    const keyType = apiVersion >= 1 ? request.int8() : GROUP_COORDINATOR;
    const response = responseWithThrottle(apiVersion, 1);
    if (keyType !== GROUP_COORDINATOR) {
      broker.logger.warn('a client asked for a transaction coordinator; transactions are not supported');
      return response
        .int16(ErrorCode.InvalidRequest)
        .string('kafka-dev-broker does not support transactions')
        .int32(-1)
        .string('')
        .int32(-1);
    }
    const { nodeId, host, port } = broker.node;
    return response
      .int16(ErrorCode.None)
      .when(apiVersion >= 1, (writer) => writer.string(null)) // error_message
      .int32(nodeId)
      .string(host)
      .int32(port);
  },
};
