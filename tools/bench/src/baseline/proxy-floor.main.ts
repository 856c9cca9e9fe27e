import { createProxyFloor } from './proxy-floor';
import { serveBaseline } from './serve-baseline';

/** The proxy floor as its own process (as the gateway runs): UPSTREAM_URL, PORT, HOST. */
const upstreamUrl = process.env['UPSTREAM_URL'];
if (!upstreamUrl) {
  process.stderr.write('proxy-floor: UPSTREAM_URL is required\n');
  process.exit(1);
}
serveBaseline('proxy-floor', createProxyFloor({ upstreamUrl }));
