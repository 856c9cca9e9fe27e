import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

const GROUP_COORDINATOR = 0;

/** FindCoordinator v2: this broker coordinates every group. Transaction coordinators are refused. */
export const findCoordinatorHandler: ApiHandler = {
  apiKey: ApiKey.FindCoordinator,
  minVersion: 2,
  maxVersion: 2,
  async handle(request, { broker }) {
    request.string(); // key: the group id
    const keyType = request.int8();
    const response = new ResponseWriter().int32(THROTTLE_TIME_MS);
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
    return response.int16(ErrorCode.None).string(null).int32(nodeId).string(host).int32(port);
  },
};
