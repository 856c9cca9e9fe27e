import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** LeaveGroup v2 (one member per request; v3 batches members). The others rebalance at once. */
export const leaveGroupHandler: ApiHandler = {
  apiKey: ApiKey.LeaveGroup,
  minVersion: 2,
  maxVersion: 2,
  async handle(request, { broker }) {
    const groupId = request.string();
    const memberId = request.string();
    const errorCode = broker.groups.group(groupId)?.leave(memberId) ?? ErrorCode.UnknownMemberId;
    return new ResponseWriter().int32(THROTTLE_TIME_MS).int16(errorCode);
  },
};
