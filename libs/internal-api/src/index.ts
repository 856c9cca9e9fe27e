export { type InternalApiClientOptions, InternalApiClient, type InternalRead } from './internal-api-client';
export { internalApiAuthFrom, InternalApiServiceConfig, type InternalApiVariables } from './internal-api-config';
export { internalCallSeconds, internalCalls } from './internal-api-metrics';
export { internalApiClientProvider, type InternalApiClientProviderOptions } from './internal-api-client.provider';
