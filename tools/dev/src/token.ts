import { loadOrCreateDevKeyPair, signDevToken } from '@erp/auth';
import { parseArgs } from './args';
import { DEV_KEYS_DIR } from './paths';

/**
 * `npm run token -- --company 1000001 [--company 2000002] [--scope "erp:read erp:write"] [--hours 8]`
 * prints a token signed with the embedded default's dev key (the key `npm start` trusts).
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const companies = (args.get('company') ?? ['1000001']).flatMap((c) => c.split(',')).filter(Boolean);
  const scope = args.get('scope')?.[0] ?? 'erp:read erp:write webhooks:manage';
  const hours = Number(args.get('hours')?.[0] ?? '8');
  if (!Number.isFinite(hours) || hours <= 0) {
    process.stderr.write('--hours must be a positive number\n');
    process.exit(2);
  }
  const keys = loadOrCreateDevKeyPair(DEV_KEYS_DIR);
  const token = await signDevToken(keys.privateKeyPem, {
    companies,
    scope,
    subject: args.get('subject')?.[0] ?? 'dev-user',
    expiresInSeconds: Math.round(hours * 3600),
  });
  process.stdout.write(`${token}\n`);
}

void main();
