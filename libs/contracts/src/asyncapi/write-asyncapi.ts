import { writeFileSync } from 'node:fs';
import { ASYNCAPI_FILE, asyncApiJson } from './asyncapi-file';

// `npm run contracts:asyncapi`: writes the committed AsyncAPI document after a contract change.
writeFileSync(ASYNCAPI_FILE, asyncApiJson());
process.stdout.write(`wrote ${ASYNCAPI_FILE}\n`);
