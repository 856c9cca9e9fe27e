import { type ArgumentsHost, Catch, Controller, type ExceptionFilter, Get, HttpCode, Post, Put } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Module } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Versioned, versioned, type VersionedBody } from './index';

@Controller('things')
class ThingsController {
  @Get('one')
  @Versioned()
  one(): VersionedBody<{ name: string }> {
    return versioned({ name: 'one' }, 7);
  }

  @Post()
  @HttpCode(201)
  @Versioned()
  create(): VersionedBody<{ name: string }> {
    return versioned({ name: 'new' }, 8, { location: '/things/new' });
  }

  @Put('one')
  @HttpCode(204)
  @Versioned()
  update(): VersionedBody<undefined> {
    return versioned(undefined, 9);
  }

  @Get('forgot')
  @Versioned()
  forgot(): { name: string } {
    return { name: 'no version' };
  }
}

/** Like every service's error filter: catches everything. The 304 must still win. */
@Catch()
class CatchEverything implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    void host.switchToHttp().getResponse<FastifyReply>().status(500).send({ caught: String(exception) });
  }
}

@Module({ controllers: [ThingsController], providers: [{ provide: APP_FILTER, useClass: CatchEverything }] })
class ThingsModule {}

describe('ETagInterceptor (@Versioned) over HTTP', () => {
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('sets the ETag from the version and sends the body', async () => {
    const response = await fetch(`${base}/things/one`);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"7"');
    expect(await response.json()).toEqual({ name: 'one' });
  });

  it('answers a matching If-None-Match with 304, the ETag and no body, before any catch-all filter', async () => {
    for (const tag of ['"7"', 'W/"7"', '"1", "7"', '*']) {
      const response = await fetch(`${base}/things/one`, { headers: { 'if-none-match': tag } });
      expect({ tag, status: response.status, etag: response.headers.get('etag'), body: await response.text() }).toEqual({
        tag,
        status: 304,
        etag: '"7"',
        body: '',
      });
    }
  });

  it('answers a stale If-None-Match in full', async () => {
    const response = await fetch(`${base}/things/one`, { headers: { 'if-none-match': '"6"' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: 'one' });
  });

  it('sets ETag and Location on a create, and ETag on a 204 update; If-None-Match does not apply to writes', async () => {
    const created = await fetch(`${base}/things`, { method: 'POST', headers: { 'if-none-match': '"8"' } });
    expect([created.status, created.headers.get('etag'), created.headers.get('location')]).toEqual([201, '"8"', '/things/new']);
    expect(await created.json()).toEqual({ name: 'new' });
    const updated = await fetch(`${base}/things/one`, { method: 'PUT' });
    expect([updated.status, updated.headers.get('etag'), await updated.text()]).toEqual([204, '"9"', '']);
  });

  it('fails a @Versioned() handler that returns no version instead of sending a body without its ETag', async () => {
    const response = await fetch(`${base}/things/forgot`);
    expect(response.status).toBe(500);
    expect(response.headers.get('etag')).toBeNull();
    expect(await response.json()).toEqual({ caught: expect.stringContaining('did not return versioned') });
  });
});
