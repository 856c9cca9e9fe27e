import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError } from '../errors';
import { verifyWebhook } from './verify-webhook';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const payload = JSON.stringify({ id: 'evt_1', type: 'SALESORDER_UPDATED', publisher: 'p', companyId: '1', timestamp: '2026-01-01T00:00:00.000Z', data: { orderId: '000001' } });

function signed(body: string, at = new Date(), key = secret) {
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(key).sign('evt_1', at, body) };
}

describe('verifyWebhook', () => {
  it('answers the parsed event for a genuine delivery (string or Buffer body, any header case, array values)', () => {
    expect(verifyWebhook({ payload, headers: signed(payload), secret }).data).toEqual({ orderId: '000001' });
    const upper = Object.fromEntries(Object.entries(signed(payload)).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifyWebhook({ payload: Buffer.from(payload), headers: upper, secret }).id).toBe('evt_1');
  });

  it('rejects a tampered body, a wrong secret, an old or future timestamp and missing headers', () => {
    const headers = signed(payload);
    expect(() => verifyWebhook({ payload: payload.replace('000001', '000002'), headers, secret })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ payload, headers, secret: `whsec_${randomBytes(32).toString('base64')}` })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ payload, headers: signed(payload, new Date(Date.now() - 6 * 60_000)), secret })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ payload, headers: signed(payload, new Date(Date.now() + 6 * 60_000)), secret })).toThrow(WebhookVerificationError);
    const { ['webhook-signature']: _s, ...noSignature } = headers;
    expect(() => verifyWebhook({ payload, headers: noSignature, secret })).toThrow(/missing webhook-signature/);
  });

  it('accepts any of several secrets (a rotation) and any of several signatures', () => {
    const old = `whsec_${randomBytes(32).toString('base64')}`;
    const now = new Date();
    const both = { ...signed(payload, now), 'webhook-signature': `${new Webhook(old).sign('evt_1', now, payload)} ${new Webhook(secret).sign('evt_1', now, payload)}` };
    expect(verifyWebhook({ payload, headers: both, secret: old }).id).toBe('evt_1');
    expect(verifyWebhook({ payload, headers: signed(payload), secret: [old, secret] }).id).toBe('evt_1');
  });
});
