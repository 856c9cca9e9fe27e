import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { useClientTestSystem, WORK_COMPANY } from './support/client-test-system';

/**
 * `@erp/client`'s attachment calls through the gateway: a system of only the services they touch
 * (customers and supplier invoices own the attachments), so the suite starts fewer processes.
 */
describe('@erp/client attachments against the running system', () => {
  const { clientFor } = useClientTestSystem({ label: 'e2e_clfiles', services: ['customers-v1', 'supplier-invoices-v1', 'attachments-v1'] });

  describe('attachments', () => {
    it('round-trips files byte-exact: Buffer and stream uploads, Base64 download and streamed download, a multi-MiB file included', async () => {
      const client = await clientFor(WORK_COMPANY);
      const customer = await client.customers.create({ name: 'Attachment Owner' });
      const owner = { type: 'customer' as const, id: customer.number };

      const small = randomBytes(1000);
      const first = await client.attachments.upload(owner, { fileName: 'Kvittering ø 1.bin', data: small }, { waitForOwnerMs: 30_000 });
      expect(first).toEqual(expect.objectContaining({ name: 'Kvittering ø 1.bin', revision: 1, size: 1000 }));
      expect(await client.attachments.download(first.id)).toEqual(small);
      expect(await buffer(client.attachments.downloadStream(first.id))).toEqual(small);

      const large = randomBytes(6 * 1024 * 1024 + 7);
      const uploadProgress: number[] = [];
      // Uploaded from a stream of 100 KiB chunks: sent chunked, never held whole by the client.
      const chunks = Array.from({ length: Math.ceil(large.length / 102_400) }, (_, i) => large.subarray(i * 102_400, (i + 1) * 102_400));
      const big = await client.attachments.upload(owner, { fileName: 'large.bin', data: Readable.from(chunks), contentType: 'application/x-test', onProgress: (bytes) => uploadProgress.push(bytes) });
      expect(big).toEqual(expect.objectContaining({ size: large.length, contentType: 'application/x-test' }));
      expect(uploadProgress[uploadProgress.length - 1]).toBe(large.length);

      expect((await client.attachments.download(big.id)).equals(large)).toBe(true);
      const downloadProgress: number[] = [];
      const opened = await client.attachments.open(big.id, { onProgress: (bytes) => downloadProgress.push(bytes) });
      expect(opened.size).toBe(large.length);
      expect((await buffer(opened.stream)).equals(large)).toBe(true);
      expect(downloadProgress.length).toBeGreaterThan(1);
      expect(downloadProgress[downloadProgress.length - 1]).toBe(large.length);

      // Same name again: a new revision; the older one stays readable.
      const second = await client.attachments.upload(owner, { fileName: 'Kvittering ø 1.bin', data: Buffer.from('second') });
      expect(second).toEqual(expect.objectContaining({ id: first.id, revision: 2 }));
      expect((await client.attachments.download(first.id)).toString()).toBe('second');
      expect(await client.attachments.download(first.id, { revision: 1 })).toEqual(small);
    }, 180_000);

    it("fetches a supplier invoice's attachment the specification's way: attachment id from the invoice, Base64 decoded", async () => {
      const client = await clientFor(WORK_COMPANY);
      const invoice = await client.supplierInvoices.create({ supplier: { number: 'S-1', name: 'Supplier' }, invoiceLines: [{ description: 'x', quantity: 1, unitPrice: 10 }] });
      const content = randomBytes(3333);
      await client.attachments.upload({ type: 'supplierInvoice', id: invoice.referenceNumber }, { fileName: 'invoice.pdf', data: content, contentType: 'application/pdf' }, { waitForOwnerMs: 30_000 });
      // The invoice lists its attachments from ATTACHMENT_CREATED events: a moment after the upload.
      let withAttachment = await client.supplierInvoices.get(invoice.referenceNumber);
      for (const deadline = Date.now() + 30_000; withAttachment.attachments.length === 0 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        withAttachment = await client.supplierInvoices.get(invoice.referenceNumber);
      }
      expect(await client.attachments.download(withAttachment.attachments[0].id)).toEqual(content);
    }, 120_000);
  });
});
