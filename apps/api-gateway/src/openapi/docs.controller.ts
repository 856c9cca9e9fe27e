import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { Public } from '@erp/auth';
import { OpenApiAggregator } from './openapi-aggregator';
import { JsonDocument, packageFile, ReferencePage, sendAsset } from './reference-page';

/** The standalone bundle of the `redoc` package, served from node_modules: no CDN. */
const REDOC_BUNDLE = packageFile('redoc/bundles/redoc.standalone.js');
/** The one remote asset the bundle refers to: the logo of its "API docs by Redocly" footer. */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

let redocBundle: Buffer | undefined;
/** Read once, with the CDN logo replaced so the page makes no request outside the gateway. */
function loadRedocBundle(): Buffer {
  redocBundle ??= Buffer.from(readFileSync(REDOC_BUNDLE, 'utf8').split(REDOC_CDN_LOGO).join(EMPTY_IMAGE));
  return redocBundle;
}

const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>ERP business API reference</title>
  <style>
    body { margin: 0; padding: 0; }
  </style>
</head>
<body>
  <div id="redoc-container"></div>
  <script src="/docs/redoc.standalone.js"></script>
  <script>
    Redoc.init('/openapi.json', {
      expandResponses: '200,201',
      pathInMiddlePanel: true,
      hideDownloadButton: false,
      disableSearch: false
    }, document.getElementById('redoc-container'));
  </script>
</body>
</html>`;

/** `/openapi.json` (the merged document) and `/docs` (the API reference page); neither needs a token. */
@Controller()
@Public()
export class DocsController {
  constructor(private readonly aggregator: OpenApiAggregator) {}

  @Get('openapi.json')
  @JsonDocument()
  openApi(): Promise<string> {
    return this.aggregator.document();
  }

  @Get('docs')
  @ReferencePage({ workers: true })
  docs(): string {
    return DOCS_PAGE;
  }

  @Get('docs/redoc.standalone.js')
  redoc(@Res() reply: FastifyReply): void {
    sendAsset(reply, 'application/javascript; charset=utf-8', loadRedocBundle());
  }
}
