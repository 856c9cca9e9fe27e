import { Controller, type DynamicModule, Get, Header, Inject, type INestApplication, Module } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { Public } from '@erp/auth';
import { buildOpenApiDocument, type OpenApiAudience, type OpenApiDocumentOptions } from './build-document';
import { JSON_TYPE } from './content-types';

const OPENAPI_OPTIONS = Symbol('OPENAPI_OPTIONS');

/**
 * `GET /openapi.json` (no token): the service's OpenAPI 3.1 document, built once on first request
 * from the running application's controllers. `GET /internal/openapi.json`: its internal API's
 * (what other services call; the gateway routes no `/internal` path, so clients never see it).
 */
@Controller()
@Public()
@ApiExcludeController()
export class OpenApiController {
  private readonly documents = new Map<OpenApiAudience, string>();

  constructor(
    @Inject(OPENAPI_OPTIONS) private readonly options: OpenApiDocumentOptions,
    private readonly modules: ModulesContainer,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('openapi.json')
  @Header('content-type', JSON_TYPE)
  @Header('cache-control', 'no-cache')
  get(): string {
    return this.document('public');
  }

  @Get('internal/openapi.json')
  @Header('content-type', JSON_TYPE)
  @Header('cache-control', 'no-cache')
  getInternal(): string {
    return this.document('internal');
  }

  private document(audience: OpenApiAudience): string {
    let text = this.documents.get(audience);
    if (text === undefined) {
      text = JSON.stringify(this.build(audience));
      this.documents.set(audience, text);
    }
    return text;
  }

  /** The scanner needs only these parts of the application, which Nest lets a provider inject. */
  private build(audience: OpenApiAudience): OpenAPIObject {
    const app = {
      container: { getModules: () => this.modules, isGlobalModule: () => false },
      // The services set no global prefix and no versioning: a default config describes them.
      config: new ApplicationConfig(),
      getHttpAdapter: () => this.adapterHost.httpAdapter,
      // The operations' scopes are read from the controllers (stateOperationScopes).
      get: (token: unknown) => (token === ModulesContainer ? this.modules : undefined),
    } as unknown as INestApplication;
    return buildOpenApiDocument(app, this.options, audience);
  }
}

/** One import per service: `OpenApiModule.forRoot({ title, version, schemas })`. */
@Module({})
export class OpenApiModule {
  static forRoot(options: OpenApiDocumentOptions): DynamicModule {
    return {
      module: OpenApiModule,
      controllers: [OpenApiController],
      providers: [{ provide: OPENAPI_OPTIONS, useValue: options }],
    };
  }
}
