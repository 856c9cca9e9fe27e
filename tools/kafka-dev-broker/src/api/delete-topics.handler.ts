import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/** DeleteTopics v0-1 (v1 adds the throttle time): drops the logs and the offsets committed for them. */
export const deleteTopicsHandler: ApiHandler = {
  apiKey: ApiKey.DeleteTopics,
  minVersion: 0,
  maxVersion: 1,
  async handle(request, { broker, apiVersion }) {
    const names = request.array((reader) => reader.string());
    request.int32(); // timeout_ms
    const results = names.map((name) => {
      if (!broker.topics.delete(name)) return { name, errorCode: ErrorCode.UnknownTopicOrPartition };
      broker.groups.forgetTopic(name);
      broker.logger.info('topic deleted', { topic: name });
      return { name, errorCode: ErrorCode.None };
    });
    return responseWithThrottle(apiVersion, 1).array(results, (writer, { name, errorCode }) =>
      writer.string(name).int16(errorCode),
    );
  },
};
