import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@erp/auth';
import { authSettingsFrom } from '@erp/bootstrap';
import { HealthModule } from '@erp/observability';
import type { GatewayConfig } from './config';
import { DocsController } from './openapi/docs.controller';
import { EventsDocsController } from './openapi/events-docs.controller';
import { OpenApiAggregator } from './openapi/openapi-aggregator';
import { UpstreamDocuments } from './openapi/upstream-documents';
import { GatewayRoutes } from './proxy/gateway-routes';
import { ProxyRegistrar } from './proxy/proxy.registrar';

@Module({})
export class GatewayAppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [AuthModule.forRoot(authSettingsFrom(config), { requireApplicationType: false }), HealthModule.forRoot()],
      controllers: [DocsController, EventsDocsController],
      providers: [{ provide: 'GATEWAY_CONFIG', useValue: config }, UpstreamDocuments, GatewayRoutes, ProxyRegistrar, OpenApiAggregator],
    };
  }
}
