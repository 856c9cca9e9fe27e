import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsString, MinLength } from 'class-validator';
import { DEV_AUDIENCE, DEV_ISSUER, generateDevKeyPair, TokenVerifier } from '@erp/auth';
import { authSettingsFrom, ConfigError, loadConfig, ServiceConfig } from './config';

const DATABASE_URL = 'postgres://erp:s3cret-password@localhost:5432/customers';

class ExampleConfig extends ServiceConfig {
  @IsString()
  @MinLength(3)
  EXAMPLE_TOPIC = 'customers';
}

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(ServiceConfig, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('fills every unset variable with its default', () => {
    const config = loadConfig(ServiceConfig, { DATABASE_URL });
    expect(config).toBeInstanceOf(ServiceConfig);
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATABASE_URL,
      DATABASE_POOL_SIZE: 10,
      AUTH_ISSUER: DEV_ISSUER,
      AUTH_AUDIENCE: DEV_AUDIENCE,
      LOG_LEVEL: 'info',
      BODY_LIMIT_BYTES: 1024 * 1024,
    });
    expect(config.AUTH_JWKS_URL).toBeUndefined();
  });

  it('converts numeric variables to numbers', () => {
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL,
      PORT: '8080',
      DATABASE_POOL_SIZE: '25',
      BODY_LIMIT_BYTES: '2048',
    });
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_POOL_SIZE).toBe(25);
    expect(config.BODY_LIMIT_BYTES).toBe(2048);
  });

  it('accepts port 0 (a free port, as the tests use)', () => {
    expect(loadConfig(ServiceConfig, { DATABASE_URL, PORT: '0' }).PORT).toBe(0);
  });

  it('accepts a postgresql:// URL and an https JWKS URL', () => {
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL: 'postgresql://erp@db-host:5432/orders',
      AUTH_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
    });
    expect(config.AUTH_JWKS_URL).toBe('https://id.example.com/.well-known/jwks.json');
  });

  it('validates the variables an app adds to the shared ones', () => {
    expect(loadConfig(ExampleConfig, { DATABASE_URL }).EXAMPLE_TOPIC).toBe('customers');
    expect(() => loadConfig(ExampleConfig, { DATABASE_URL, EXAMPLE_TOPIC: 'ab' })).toThrow(/EXAMPLE_TOPIC/);
  });

  it('treats an empty variable as unset, so it takes its default', () => {
    const config = loadConfig(ExampleConfig, {
      DATABASE_URL,
      EXAMPLE_TOPIC: '',
      PORT: '',
      AUTH_JWKS_URL: '',
    });
    expect(config.EXAMPLE_TOPIC).toBe('customers');
    expect(config.PORT).toBe(3000);
    expect(config.AUTH_JWKS_URL).toBeUndefined();
  });

  it('refuses a missing DATABASE_URL by name', () => {
    expect(configError({}).message).toMatch(/^\s+DATABASE_URL: /m);
  });

  it('names each bad variable in one message', () => {
    const { message } = configError({
      DATABASE_URL: 'mysql://localhost/db',
      PORT: 'eighty',
      DATABASE_POOL_SIZE: '0',
      AUTH_JWKS_URL: 'ftp://id.example.com/keys',
      LOG_LEVEL: 'loud',
      LOG_PRETTY: 'yes',
      BODY_LIMIT_BYTES: '10',
    });
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of [
      'DATABASE_URL',
      'PORT',
      'DATABASE_POOL_SIZE',
      'AUTH_JWKS_URL',
      'LOG_LEVEL',
      'LOG_PRETTY',
      'BODY_LIMIT_BYTES',
    ]) {
      expect(message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
    }
    expect(message).not.toMatch(/^\s+(HOST|AUTH_AUDIENCE):/m);
  });

  it.each([
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_POOL_SIZE', '201'],
  ])('refuses %s=%s', (name, value) => {
    expect(configError({ DATABASE_URL, [name]: value }).message).toContain(`${name}:`);
  });

  it('does not echo variable values (which may hold secrets) in the message', () => {
    const { message } = configError({ DATABASE_URL: 'not a url s3cret-password', PORT: 'x' });
    expect(message).not.toContain('s3cret-password');
  });
});

describe('authSettingsFrom', () => {
  const keys = generateDevKeyPair();
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bootstrap-config-spec-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a PEM from AUTH_PUBLIC_KEY, turning \\n escapes into line breaks', async () => {
    const escaped = keys.publicKeyPem.trimEnd().replace(/\n/g, '\\n');
    const settings = authSettingsFrom(loadConfig(ServiceConfig, { DATABASE_URL, AUTH_PUBLIC_KEY: escaped }));
    expect(settings.publicKeyPem).toBe(keys.publicKeyPem.trimEnd());
    await expect(TokenVerifier.create(settings)).resolves.toBeInstanceOf(TokenVerifier);
  });

  it('reads the PEM from AUTH_PUBLIC_KEY_FILE, which wins over AUTH_PUBLIC_KEY', () => {
    const file = join(dir, 'public.pem');
    writeFileSync(file, keys.publicKeyPem);
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL,
      AUTH_PUBLIC_KEY_FILE: file,
      AUTH_PUBLIC_KEY: 'other',
    });
    expect(authSettingsFrom(config).publicKeyPem).toBe(keys.publicKeyPem);
  });

  it('names AUTH_PUBLIC_KEY_FILE when the file cannot be read', () => {
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL,
      AUTH_PUBLIC_KEY_FILE: join(dir, 'missing.pem'),
    });
    expect(() => authSettingsFrom(config)).toThrow(ConfigError);
    expect(() => authSettingsFrom(config)).toThrow(/AUTH_PUBLIC_KEY_FILE/);
  });

  it('uses the JWKS URL (and no key) when one is set', () => {
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL,
      AUTH_JWKS_URL: 'https://id.example.com/jwks',
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
    });
    expect(authSettingsFrom(config)).toEqual({
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      jwksUrl: 'https://id.example.com/jwks',
      publicKeyPem: undefined,
    });
  });

  it('passes the configured issuer and audience', () => {
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL,
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
      AUTH_ISSUER: 'https://id.example.com',
      AUTH_AUDIENCE: 'erp',
    });
    expect(authSettingsFrom(config)).toMatchObject({ issuer: 'https://id.example.com', audience: 'erp' });
  });

  it('fails with a ConfigError naming AUTH_JWKS_URL when no key source is set', () => {
    const config = loadConfig(ServiceConfig, { DATABASE_URL });
    expect(() => authSettingsFrom(config)).toThrow(ConfigError);
    expect(() => authSettingsFrom(config)).toThrow(/AUTH_JWKS_URL.*AUTH_PUBLIC_KEY/);
  });
});

describe('tracing variables (OTEL_*)', () => {
  it('are all optional: tracing is off by default', () => {
    const config = loadConfig(ServiceConfig, { DATABASE_URL });
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(config.OTEL_TRACES_SAMPLER).toBeUndefined();
  });

  it('accepts a collector endpoint, a sampler with its ratio and a batch delay', () => {
    const config = loadConfig(ServiceConfig, {
      DATABASE_URL,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'orders',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_BSP_SCHEDULE_DELAY: '500',
    });
    expect(config).toMatchObject({ OTEL_TRACES_SAMPLER_ARG: 0.1, OTEL_BSP_SCHEDULE_DELAY: 500, OTEL_SERVICE_NAME: 'orders' });
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'ftp://collector/v1/traces'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/protobuf'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_TRACES_SAMPLER_ARG', 'half'],
    ['OTEL_BSP_SCHEDULE_DELAY', '-1'],
  ])('refuse %s=%s, naming it', (name, value) => {
    expect(configError({ DATABASE_URL, [name]: value }).message).toContain(`${name}:`);
  });
});
