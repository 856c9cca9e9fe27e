import type { CommandContext } from '../context';

export interface TokenOptions {
  company?: string[];
  scope: string;
  hours: number;
  subject: string;
}

/**
 * `erp token`: a dev token signed with the embedded default's key (`.data/dev-keys`, or
 * `$ERP_DATA_DIR/dev-keys`), the same one `npm run token` prints. Loaded lazily: the other
 * commands do not need the signing code.
 */
export async function tokenCommand(context: CommandContext, options: TokenOptions): Promise<void> {
  const [{ loadOrCreateDevKeyPair, signDevToken }, { DEV_KEYS_DIR }] = await Promise.all([import('@erp/auth'), import('@erp/dev')]);
  const keys = loadOrCreateDevKeyPair(DEV_KEYS_DIR);
  const token = await signDevToken(keys.privateKeyPem, {
    companies: options.company?.length ? options.company : ['1000001'],
    scope: options.scope,
    subject: options.subject,
    expiresInSeconds: Math.round(options.hours * 3600),
  });
  context.stdout.write(`${token}\n`);
}
