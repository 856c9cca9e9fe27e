import { Controller, Delete, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { RequiredScope, SCOPES } from '@erp/auth';
import { buildOpenApiDocument } from './build-document';
import { ApiAuthenticated } from './decorators';
import { OpenApiModule } from './openapi.module';

@Controller('api/things')
@ApiAuthenticated('problem')
class ThingsController {
  @Get()
  list(): string[] {
    return [];
  }

  @Post()
  create(): string {
    return 'created';
  }

  @Delete(':id')
  @RequiredScope(SCOPES.manageWebhooks)
  remove(): string {
    return 'removed';
  }
}

@Controller('api/hooks')
@ApiAuthenticated('problem')
@RequiredScope(SCOPES.manageWebhooks)
class HooksController {
  @Get()
  list(): string[] {
    return [];
  }
}

@Module({ imports: [OpenApiModule.forRoot({ title: 't', version: '1' })], controllers: [ThingsController, HooksController] })
class ThingsModule {}

describe('the public document states the scope of each operation (the gateway enforces it)', () => {
  it("writes the AuthGuard's scope into each operation's bearer requirement, in the /openapi.json a service serves", async () => {
    const app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const served = await fetch(`${await app.getUrl()}/openapi.json`);
      expect(served.status).toBe(200);
      const servedPaths = ((await served.json()) as { paths: ReturnType<typeof buildOpenApiDocument>['paths'] }).paths;
      for (const paths of [buildOpenApiDocument(app, { title: 't', version: '1' }).paths, servedPaths]) {
        expect(paths['/api/things']?.get?.security).toEqual([{ bearer: [SCOPES.read] }]);
        expect(paths['/api/things']?.post?.security).toEqual([{ bearer: [SCOPES.write] }]);
        expect(paths['/api/things/{id}']?.delete?.security).toEqual([{ bearer: [SCOPES.manageWebhooks] }]);
        expect(paths['/api/hooks']?.get?.security).toEqual([{ bearer: [SCOPES.manageWebhooks] }]);
      }
    } finally {
      await app.close();
    }
  });
});
