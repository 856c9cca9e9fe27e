import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** DeleteTopics v1: drops the logs and the offsets groups committed for them. */
export const deleteTopicsHandler: ApiHandler = {
  apiKey: ApiKey.DeleteTopics,
  minVersion: 1,
  maxVersion: 1,
  async handle(request, { broker }) {
    const names = request.array((reader) => reader.string());
    request.int32(); // timeout_ms
    const results = names.map((name) => {
      if (!broker.topics.delete(name)) return { name, errorCode: ErrorCode.UnknownTopicOrPartition };
      broker.groups.forgetTopic(name);
      broker.logger.info('topic deleted', { topic: name });
      return { name, errorCode: ErrorCode.None };
    });
    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
      .array(results, (writer, { name, errorCode }) => writer.string(name).int16(errorCode));
  },
};
