import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** InitProducerId v0-1 (alike): a fresh producer id (epoch 0) per idempotent producer. No transactions. */
export const initProducerIdHandler: ApiHandler = {
  apiKey: ApiKey.InitProducerId,
  minVersion: 0,
  maxVersion: 1,
  async handle(request, { broker, clientId }) {
    const transactionalId = request.nullableString();
    request.int32(); // transaction_timeout_ms
    const response = new ResponseWriter().int32(THROTTLE_TIME_MS);
    if (transactionalId !== null) {
      broker.logger.warn('refused a transactional producer; transactions are not supported', { clientId });
      return response.int16(ErrorCode.InvalidRequest).int64(-1).int16(-1);
    }
    return response.int16(ErrorCode.None).int64(broker.topics.allocateProducerId()).int16(0);
  },
};
