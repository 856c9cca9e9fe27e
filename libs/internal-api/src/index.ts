export { type InternalApiClientOptions, InternalApiClient, type InternalRead } from './internal-api-client';
export { internalApiAuthFrom, type InternalApiVariables, WithInternalApi } from './internal-api-config';
export { internalCallSeconds, internalCalls } from './internal-api-metrics';
export { internalApiClientProvider, type InternalApiClientProviderOptions } from './internal-api-client.provider';
