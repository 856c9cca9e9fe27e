export * from './auth-settings';
export * from './token-verifier';
export * from './authenticate-request';
export * from './auth.guard';
export * from './auth.module';
export * from './dev-tokens';
export * from './service-tokens';
export * from './request-log-bindings';
