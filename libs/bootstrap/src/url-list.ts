import { Transform } from 'class-transformer';
import { IsUrl } from 'class-validator';

const splitList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((url) => url.trim()).filter((url) => url.length > 0) : value;

/**
 * A variable naming another service: one http(s) URL (a Kubernetes Service), or a comma-separated
 * list of its replicas (`npm start` with REPLICAS, tests), read as `string[]`. The gateway's
 * upstreams and a service's calls to another service's internal API use it.
 */
export const UrlList = (): PropertyDecorator => (target: object, property: string | symbol) => {
  Transform(splitList)(target, property as string);
  IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { each: true })(target, property as string);
};
