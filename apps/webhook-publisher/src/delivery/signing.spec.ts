import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSecret, secretKey, signedHeaders } from './signing';

const body = JSON.stringify({ id: 'e1', type: 'SALESORDER_UPDATED', data: { orderId: '000123', note: 'æøå' } });

describe('webhook signing', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });

  it('signs so that the standardwebhooks library verifies, with any of the secrets during a rotation', () => {
    const current = generateSecret();
    const previous = generateSecret();
    const headers = signedHeaders({ messageId: 'e1', timestamp: new Date(), body, secrets: [current, previous], subscriptionId: 's1', companyId: '1000001' });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toMatchObject({ id: 'e1' });
    expect(new Webhook(previous).verify(body, headers)).toMatchObject({ id: 'e1' });
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('adds the compatibility headers: x-vwd-signature-v1 is the HMAC of the raw body with the current secret', () => {
    const secret = generateSecret();
    const at = new Date('2026-04-21T10:00:00.000Z');
    const headers = signedHeaders({ messageId: 'e1', timestamp: at, body, secrets: [secret, generateSecret()], subscriptionId: 's1', companyId: '1000001' });
    expect(headers['x-vwd-signature-v1']).toBe(createHmac('sha256', secretKey(secret)).update(body).digest('base64'));
    expect(headers).toMatchObject({
      'webhook-id': 'e1',
      'webhook-timestamp': String(at.getTime() / 1000),
      'x-vwd-event-id': 'e1',
      'x-vwd-subscription-id': 's1',
      'x-vwd-tenant-id': '1000001',
      'x-vwd-notification-timestamp': '2026-04-21T10:00:00.000Z',
    });
  });
});
