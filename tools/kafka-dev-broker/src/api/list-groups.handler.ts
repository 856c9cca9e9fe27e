import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** ListGroups v2. */
export const listGroupsHandler: ApiHandler = {
  apiKey: ApiKey.ListGroups,
  minVersion: 2,
  maxVersion: 2,
  async handle(_request, { broker }) {
    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
      .int16(ErrorCode.None)
      .array(broker.groups.list(), (writer, group) =>
        writer.string(group.groupId).string(group.protocolType ?? ''),
      );
  },
};
