import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** DeleteGroups v0-1 (alike): only groups without members, with their committed offsets. */
export const deleteGroupsHandler: ApiHandler = {
  apiKey: ApiKey.DeleteGroups,
  minVersion: 0,
  maxVersion: 1,
  async handle(request, { broker }) {
    const groupIds = request.array((reader) => reader.string());
    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
      .array(groupIds, (writer, groupId) => writer.string(groupId).int16(broker.groups.delete(groupId)));
  },
};
