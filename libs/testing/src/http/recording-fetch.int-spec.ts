import { Controller, Get, Module } from '@nestjs/common';
import { ServiceConfig } from '@erp/bootstrap';
import { RecordingFetch } from './recording-fetch';
import { type RunningTestService, startTestService } from './start-test-service';

/** What a repository meets when a walled table's view lacks a column (issue 50's bare 500). */
@Controller()
class BrokenController {
  @Get('v1/broken')
  broken(): never {
    throw Object.assign(new Error('column i.payment_reference does not exist'), { code: '42703' });
  }

  @Get('v1/fine')
  fine(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [BrokenController] })
class BrokenModule {}

describe('a 5xx in a test names what the service logged for it', () => {
  let service: RunningTestService;
  let http: RecordingFetch;
  let printed: jest.SpyInstance;

  beforeAll(async () => {
    service = await startTestService({
      name: 'recording-fetch-test',
      config: ServiceConfig,
      env: { DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' },
      module: () => ({ module: BrokenModule }),
      errorFamily: 'by-path',
    });
    http = new RecordingFetch(service.url, service.loggedErrors);
  });
  beforeEach(() => {
    printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => printed.mockRestore());
  afterAll(() => service.close());

  it('keeps the logged error, the SQL error text and code, with the 5xx, and prints it beside the test', async () => {
    expect((await http.request('/v1/broken')).status).toBe(500);
    expect(http.serverErrors()).toEqual([
      { method: 'GET', url: '/v1/broken', status: 500, logged: ['request failed: Error: column i.payment_reference does not exist (42703)'] },
    ]);
    expect(printed).toHaveBeenCalledWith(expect.stringContaining('GET /v1/broken answered 500; the service logged: request failed: Error: column i.payment_reference does not exist (42703)'));
  });

  it('prints nothing for an answer below 500', async () => {
    expect((await http.request('/v1/fine')).status).toBe(200);
    expect(printed).not.toHaveBeenCalled();
  });
});
