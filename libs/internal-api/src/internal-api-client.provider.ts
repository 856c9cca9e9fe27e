import { Logger, type Provider } from '@nestjs/common';
import { ServiceTokenSigner } from '@erp/auth';
import { InternalApiClient } from './internal-api-client';
import type { InternalApiVariables } from './internal-api-config';

export interface InternalApiClientProviderOptions {
  /** The injection token the use cases ask for, e.g. `CUSTOMERS_API`. */
  provide: symbol;
  /** This service (the tokens' `sub`). */
  caller: string;
  /** The called service (the tokens' `aud`), and its URLs (one Kubernetes Service, or replicas). */
  target: string;
  urls: readonly string[];
  config: InternalApiVariables;
}

/** A Nest provider of one called service's client; its connections close with the app. */
export function internalApiClientProvider(options: InternalApiClientProviderOptions): Provider {
  return {
    provide: options.provide,
    useFactory: () => {
      const logger = new Logger(`InternalApi ${options.target}`);
      return new InternalApiClient({
        target: options.target,
        urls: options.urls,
        signer: new ServiceTokenSigner(options.caller, options.config.INTERNAL_API_SECRET),
        timeoutMs: options.config.INTERNAL_API_TIMEOUT_MS,
        warn: (message) => logger.warn(message),
      });
    },
  };
}
