import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { Public } from '@erp/auth';
import { asyncApiDocument } from '@erp/contracts';
import { JsonDocument, packageFile, ReferencePage, sendAsset } from './reference-page';

/** The standalone bundle of `@asyncapi/react-component` (React and the AsyncAPI parser inside), served from node_modules: no CDN. */
const ASYNCAPI_BUNDLE = packageFile('@asyncapi/react-component/browser/standalone/index.js');
const ASYNCAPI_STYLES = packageFile('@asyncapi/react-component/styles/default.min.css');

let assets: { bundle: Buffer; styles: Buffer } | undefined;
function loadAssets(): { bundle: Buffer; styles: Buffer } {
  assets ??= { bundle: readFileSync(ASYNCAPI_BUNDLE), styles: readFileSync(ASYNCAPI_STYLES) };
  return assets;
}

/** The document, built once from @erp/contracts (the same as libs/contracts/asyncapi.json). */
let documentJson: string | undefined;

const EVENTS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>ERP business events reference</title>
  <link rel="stylesheet" href="/docs/events/asyncapi.css">
</head>
<body>
  <p style="font-family: sans-serif; margin: 8px 16px">Kafka events (AsyncAPI) · <a href="/docs">HTTP API reference</a> · <a href="/asyncapi.json">asyncapi.json</a></p>
  <div id="asyncapi"></div>
  <script src="/docs/events/asyncapi.standalone.js"></script>
  <script>
    AsyncApiStandalone.render({
      schema: { url: '/asyncapi.json', requestOptions: {} },
      config: { show: { sidebar: true, errors: true }, sidebar: { showOperations: 'byDefault' } }
    }, document.getElementById('asyncapi'));
  </script>
</body>
</html>`;

/**
 * `/asyncapi.json` (the AsyncAPI 3 document of the Kafka events) and `/docs/events` (its reference
 * page, rendered by the AsyncAPI React component), beside `/openapi.json` and `/docs`; no token.
 */
@Controller()
@Public()
export class EventsDocsController {
  @Get('asyncapi.json')
  @JsonDocument()
  asyncApi(): string {
    documentJson ??= JSON.stringify(asyncApiDocument());
    return documentJson;
  }

  @Get('docs/events')
  @ReferencePage({ unsafeEval: true })
  page(): string {
    return EVENTS_PAGE;
  }

  @Get('docs/events/asyncapi.standalone.js')
  bundle(@Res() reply: FastifyReply): void {
    sendAsset(reply, 'application/javascript; charset=utf-8', loadAssets().bundle);
  }

  @Get('docs/events/asyncapi.css')
  styles(@Res() reply: FastifyReply): void {
    sendAsset(reply, 'text/css; charset=utf-8', loadAssets().styles);
  }
}
