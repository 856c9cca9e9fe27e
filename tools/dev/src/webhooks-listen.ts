import { loadOrCreateDevKeyPair, signDevToken } from '@erp/auth';
import { parseArgs } from './args';
import { DEV_KEYS_DIR } from './paths';
import { startWebhookListener } from './webhook-listener';

/**
 * `npm run webhooks:listen -- [--url http://localhost:3000] [--company 1000001] [--events SALESORDER_UPDATED,...]`
 * starts a local receiver, subscribes it through the API (dev token from the dev key), prints each
 * verified delivery, and deletes the subscription on Ctrl-C.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const baseUrl = args.get('url')?.[0] ?? 'http://localhost:3000';
  const companyId = args.get('company')?.[0] ?? '1000001';
  const eventTypes = (args.get('events') ?? []).flatMap((value) => value.split(',')).map((v) => v.trim()).filter(Boolean);
  const keys = loadOrCreateDevKeyPair(DEV_KEYS_DIR);
  const token = await signDevToken(keys.privateKeyPem, {
    companies: [companyId],
    scope: 'webhooks:manage',
    subject: 'webhooks-listen',
    expiresInSeconds: 12 * 3600,
  });
  const listener = await startWebhookListener({
    baseUrl,
    token,
    companyId,
    eventTypes,
    host: args.get('host')?.[0],
    port: args.has('port') ? Number(args.get('port')?.[0]) : undefined,
    onDelivery(delivery) {
      const when = new Date().toISOString();
      if (!delivery.verified) {
        process.stdout.write(`${when}  UNVERIFIED delivery ${delivery.webhookId} (${delivery.problem}); answered 400\n`);
        return;
      }
      const { type, companyId: company, data } = delivery.body;
      process.stdout.write(`${when}  ${type}  company ${company}  webhook-id ${delivery.webhookId}  signature ok\n  ${JSON.stringify(data)}\n`);
    },
  });
  process.stdout.write(
    `Listening at ${listener.url}\n` +
      listener.subscriptions.map((s) => `  subscription ${s.id}: ${s.publisher} ${s.eventTypes.join(', ')}\n`).join('') +
      `Press Ctrl-C to stop (the subscriptions are deleted).\n`,
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await listener.stop();
    process.stdout.write('subscriptions deleted; bye\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  process.stderr.write(`webhooks:listen failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
