import { CliError } from '../cli-error';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';

export interface ListenOptions {
  port?: number;
  host?: string;
  events?: string;
  secret?: boolean;
}

/**
 * `erp webhooks listen`: a local receiver subscribed through the API (startWebhookListener from
 * `@erp/dev`): prints each delivery and whether its signature verified; Ctrl-C deletes the subscriptions.
 */
export async function webhooksListenCommand(context: CommandContext, options: ListenOptions): Promise<void> {
  const config = context.config();
  const companyId = config.companyId ?? (await onlyCompanyOf(config.token));
  const { startWebhookListener } = await import('@erp/dev');
  const { stdout } = context;
  const listener = await startWebhookListener({
    baseUrl: config.baseUrl,
    token: config.token,
    companyId,
    eventTypes: (options.events ?? '').split(',').map((t) => t.trim()).filter(Boolean),
    host: options.host,
    port: options.port,
    onDelivery(delivery) {
      const when = new Date().toISOString();
      if (!delivery.verified) {
        stdout.write(`${when}  UNVERIFIED delivery ${delivery.webhookId} (${delivery.problem}); answered 400\n`);
        return;
      }
      const { type, companyId, data } = delivery.body;
      stdout.write(`${when}  ${type}  company ${companyId}  webhook-id ${delivery.webhookId}  signature ok\n  ${JSON.stringify(data)}\n`);
    },
  });
  stdout.write(
    `Listening at ${listener.url}\n` +
      listener.subscriptions
        .map((s) => `  subscription ${s.id}: ${s.publisher} ${s.eventTypes.join(', ')}${options.secret ? `  secret ${s.secret}` : ''}\n`)
        .join('') +
      'Press Ctrl-C to stop (the subscriptions are deleted).\n',
  );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const shutdown = () => {
      if (stopping) return;
      stopping = true;
      void listener.stop().then(() => {
        stdout.write('subscriptions deleted; bye\n');
        resolve();
      });
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
}

/** The subscriptions are per company: without --company, the token must grant exactly one. */
async function onlyCompanyOf(token: string): Promise<string> {
  const { decodeJwt } = await import('jose');
  let companies: unknown;
  try {
    companies = decodeJwt(token).companies;
  } catch {
    companies = undefined;
  }
  if (Array.isArray(companies) && companies.length === 1 && typeof companies[0] === 'string') return companies[0];
  throw new CliError(ExitCode.Usage, 'webhooks listen needs --company/ERP_COMPANY unless the token grants exactly one company');
}
