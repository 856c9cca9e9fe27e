import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Op } from './crash-load';
import { type OutboxEvent, query } from './crash-database';

/**
 * The checks of the crash case after the load: the ledger of answers (crash-load.ts) against the
 * services' databases, their outboxes (the record of every committed change's event), Kafka and
 * the webhook receiver. Each check adds readable problems instead of throwing, so one run reports
 * every finding.
 */

function by<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

/**
 * A create: how many times its unique value was created. Acknowledged: exactly once, as the id it was
 * told; unknown: at most once; rejected: never.
 */
function checkCreates(problems: string[], ops: Op[], createdIds: Map<string, string[]>, what: string): void {
  for (const op of ops) {
    const ids = createdIds.get(op.value) ?? [];
    if (op.outcome === 'acked' && (ids.length !== 1 || ids[0] !== op.created)) {
      problems.push(`${what} ${op.value}: acknowledged as ${op.created}, in the database ${ids.length} time(s) ${ids.join(',')}`);
    }
    if (op.outcome !== 'acked' && ids.length > (op.outcome === 'unknown' ? 1 : 0)) {
      problems.push(`${what} ${op.value}: ${op.outcome} (${op.status}), in the database ${ids.length} time(s)`);
    }
  }
  const known = new Set(ops.map((op) => op.value));
  for (const [value, ids] of createdIds) if (!known.has(value)) problems.push(`${what} ${value} (${ids.join(',')}) in the database but never requested`);
}

/**
 * The updates of one aggregate, in the order one worker sent them, against the events its
 * transactions wrote: every acknowledged value applied exactly once, an unknown one at most once,
 * a rejected one never; nothing applied twice.
 */
function checkUpdates(problems: string[], what: string, ops: Op[], appliedValues: string[]): void {
  const counts = by(appliedValues, (v) => v);
  for (const op of ops) {
    const n = counts.get(op.value)?.length ?? 0;
    if (op.outcome === 'acked' && n !== 1) problems.push(`${what}: acknowledged change ${op.value} applied ${n} time(s)`);
    if (op.outcome === 'unknown' && n > 1) problems.push(`${what}: change ${op.value} (outcome unknown) applied ${n} times`);
    if ((op.outcome === 'rejected' || op.outcome === 'failed') && n > 0) problems.push(`${what}: rejected change ${op.value} (${op.status}) applied`);
  }
  const sent = new Set(ops.map((op) => op.value));
  for (const value of counts.keys()) if (!sent.has(value)) problems.push(`${what}: change ${value} applied but never sent`);
}

/**
 * The final state of an aggregate: the value of the last acknowledged change, or of a change sent
 * after it whose outcome is unknown (`initial` when nothing was acknowledged).
 */
function allowedFinalValues(ops: Op[], initial: string): Set<string> {
  const lastAcked = ops.map((op) => op.outcome).lastIndexOf('acked');
  const allowed = new Set<string>(lastAcked < 0 ? [initial] : [ops[lastAcked].value]);
  ops.forEach((op, index) => {
    if (index > lastAcked && op.outcome === 'unknown') allowed.add(op.value);
  });
  return allowed;
}

export async function checkCustomers(problems: string[], ops: Op[], events: OutboxEvent[], db: string, company: string): Promise<void> {
  const customerEvents = events.filter((e) => e.service === 'customers-v1' && String(e.data['name']).startsWith('Crash C'));
  const created = customerEvents.filter((e) => e.type === 'CUSTOMER_CREATED');
  checkCreates(
    problems,
    ops.filter((op) => op.kind === 'createCustomer'),
    new Map([...by(created, (e) => String(e.data['name']))].map(([name, list]) => [name, list.map((e) => e.subject)])),
    'customer',
  );
  const rows = await query<{ number: string; name: string }>(db, `SELECT number, name FROM customers WHERE company_id = $1 AND name LIKE 'Crash C%'`, [company]);
  const createdSubjects = by(created, (e) => e.subject);
  for (const row of rows) {
    if (createdSubjects.get(row.number)?.length !== 1) problems.push(`customer ${row.number}: ${createdSubjects.get(row.number)?.length ?? 0} CUSTOMER_CREATED events`);
  }
  if (rows.length !== createdSubjects.size) problems.push(`customers: ${rows.length} rows, ${createdSubjects.size} created events`);
  const updates = by(ops.filter((op) => op.kind === 'updateCustomer'), (op) => op.target ?? '');
  const updateEvents = by(customerEvents.filter((e) => e.type === 'CUSTOMER_UPDATED'), (e) => e.subject);
  for (const row of rows) {
    const sent = updates.get(row.number) ?? [];
    const applied = (updateEvents.get(row.number) ?? []).map((e) => String(e.data['name']));
    checkUpdates(problems, `customer ${row.number}`, sent, applied);
    const initial = String(createdSubjects.get(row.number)?.[0]?.data['name']);
    const lastEvent = applied.at(-1) ?? initial;
    if (row.name !== lastEvent) problems.push(`customer ${row.number}: name ${row.name}, last event says ${lastEvent}`);
    if (!allowedFinalValues(sent, initial).has(row.name)) problems.push(`customer ${row.number}: final name ${row.name} is not the last acknowledged one`);
  }
}

export async function checkInvoices(problems: string[], ops: Op[], events: OutboxEvent[], db: string, company: string): Promise<void> {
  const rows = await query<{ reference_number: string; description: string; amount: string; lines: string }>(
    db,
    `SELECT reference_number, description, amount::text, (SELECT count(*) FROM supplier_invoice_lines l WHERE l.invoice_id = i.internal_id)::text AS lines
       FROM supplier_invoices i WHERE company_id = $1 AND description LIKE 'Crash I%'`,
    [company],
  );
  checkCreates(problems, ops.filter((op) => op.kind === 'createInvoice'), new Map([...by(rows, (r) => r.description)].map(([d, list]) => [d, list.map((r) => r.reference_number)])), 'invoice');
  const createdEvents = by(events.filter((e) => e.type === 'SUPPLIERINVOICE_CREATED'), (e) => e.subject);
  for (const row of rows) {
    if (row.lines !== '1' || Number(row.amount) !== 21) problems.push(`invoice ${row.reference_number}: ${row.lines} lines, amount ${row.amount} (half written?)`);
    if (createdEvents.get(row.reference_number)?.length !== 1) problems.push(`invoice ${row.reference_number}: ${createdEvents.get(row.reference_number)?.length ?? 0} SUPPLIERINVOICE_CREATED events`);
  }
}

export async function checkOrders(
  problems: string[],
  ops: Op[],
  events: OutboxEvent[],
  db: string,
  company: string,
  initialDescriptions: Map<string, string>,
): Promise<void> {
  const rows = await query<{ subject: string; customer_order: string | null; description: string; version: string; lines: string }>(
    db,
    `SELECT order_type || '/' || order_id AS subject, customer_order, description, version::text,
            (SELECT count(*) FROM sales_order_lines l WHERE l.company_id = o.company_id AND l.order_internal_id = o.internal_id)::text AS lines
       FROM sales_orders o WHERE company_id = $1`,
    [company],
  );
  const createdRows = rows.filter((r) => r.customer_order?.startsWith('Crash O'));
  checkCreates(problems, ops.filter((op) => op.kind === 'createOrder'), new Map([...by(createdRows, (r) => r.customer_order ?? '')].map(([v, list]) => [v, list.map((r) => r.subject)])), 'order');
  const orderEvents = events.filter((e) => e.service === 'sales-orders-v3');
  const createdEvents = by(orderEvents.filter((e) => e.type === 'SALESORDER_CREATED'), (e) => e.subject);
  for (const row of rows) {
    if (row.lines !== '1') problems.push(`order ${row.subject}: ${row.lines} lines (half written?)`);
    if (createdEvents.get(row.subject)?.length !== 1) problems.push(`order ${row.subject}: ${createdEvents.get(row.subject)?.length ?? 0} SALESORDER_CREATED events`);
  }
  const patches = by(ops.filter((op) => op.kind === 'patchOrder'), (op) => op.target ?? '');
  const updateEvents = by(orderEvents.filter((e) => e.type === 'SALESORDER_UPDATED'), (e) => e.subject);
  for (const [subject, sent] of patches) {
    const row = rows.find((r) => r.subject === subject);
    if (!row) {
      problems.push(`order ${subject}: gone`);
      continue;
    }
    // The event carries no description: count the changes (one event each) and compare versions.
    const applied = updateEvents.get(subject) ?? [];
    const acked = sent.filter((op) => op.outcome === 'acked').length;
    const unknown = sent.filter((op) => op.outcome === 'unknown').length;
    if (applied.length < acked || applied.length > acked + unknown) {
      problems.push(`order ${subject}: ${applied.length} changes applied, ${acked} acknowledged and ${unknown} unknown`);
    }
    const versions = applied.map((e) => String(e.data['version']));
    if (new Set(versions).size !== versions.length) problems.push(`order ${subject}: two events of one version`);
    const lastVersion = versions.at(-1) ?? String(createdEvents.get(subject)?.[0]?.data['version']);
    if (row.version !== lastVersion) problems.push(`order ${subject}: version ${row.version}, last event says ${lastVersion}`);
    if (!allowedFinalValues(sent, initialDescriptions.get(subject) ?? '').has(row.description)) {
      problems.push(`order ${subject}: final description ${row.description} is not the last acknowledged one`);
    }
  }
}

export interface AttachmentFigures {
  revisionsVisible: number;
  downloadedBytes: number;
  pendingUploadsLeft: number;
  storageFiles: number;
}

/**
 * Uploads: each acknowledged one visible once with the sent bytes' hash; an unknown one at most
 * once and then complete; every visible revision downloads completely through the gateway with
 * its hash; once swept, no pending upload and no stored file that no revision names.
 */
export async function checkAttachments(
  problems: string[],
  ops: Op[],
  events: OutboxEvent[],
  db: string,
  company: string,
  download: (id: string, revision: number) => Promise<Buffer>,
  storageDir: string,
): Promise<AttachmentFigures> {
  const rows = await query<{ id: string; name: string; revision: number; size: string; sha256: string; storage_key: string }>(
    db,
    `SELECT a.id, a.name, r.revision, r.size::text, r.sha256, r.storage_key
       FROM attachments a JOIN attachment_revisions r ON r.attachment_id = a.id
      WHERE a.company_id = $1 AND a.name LIKE 'crash-u%'`,
    [company],
  );
  const uploads = ops.filter((op) => op.kind === 'upload');
  checkCreates(problems, uploads, new Map([...by(rows, (r) => r.name)].map(([name, list]) => [name, list.map((r) => r.id)])), 'attachment');
  const sentByName = new Map(uploads.map((op) => [op.value, op]));
  const createdEvents = by(events.filter((e) => e.type === 'ATTACHMENT_CREATED'), (e) => `${String(e.data['id'])}#${String(e.data['revision'])}`);
  let downloadedBytes = 0;
  for (const row of rows) {
    const sent = sentByName.get(row.name);
    if (row.revision !== 1) problems.push(`attachment ${row.name}: revision ${row.revision} (uploaded once)`);
    if (sent && (row.sha256 !== sent.sentSha256 || Number(row.size) !== sent.size)) {
      problems.push(`attachment ${row.name}: stored ${row.size} bytes ${row.sha256}, sent ${sent.size} bytes ${sent.sentSha256}`);
    }
    if (sent?.outcome === 'acked' && sent.sha256 !== sent.sentSha256) problems.push(`attachment ${row.name}: acknowledged hash ${sent.sha256}`);
    const bytes = await download(row.id, row.revision);
    downloadedBytes += bytes.length;
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (hash !== row.sha256 || bytes.length !== Number(row.size)) {
      problems.push(`attachment ${row.name}: downloaded ${bytes.length} bytes ${hash}, expected ${row.size} bytes ${row.sha256}`);
    }
    if (createdEvents.get(`${row.id}#${row.revision}`)?.length !== 1) problems.push(`attachment ${row.name}: ${createdEvents.get(`${row.id}#${row.revision}`)?.length ?? 0} ATTACHMENT_CREATED events`);
  }
  const pending = await query<{ storage_key: string }>(db, `SELECT storage_key FROM pending_uploads`);
  if (pending.length > 0) problems.push(`${pending.length} pending upload(s) not swept: ${pending.map((p) => p.storage_key).join(', ')}`);
  const referenced = new Set((await query<{ storage_key: string }>(db, `SELECT storage_key FROM attachment_revisions`)).map((r) => r.storage_key));
  const files = await listFiles(storageDir);
  for (const file of files) if (!referenced.has(file)) problems.push(`stored file ${file} belongs to no visible revision (orphan or partial)`);
  for (const key of referenced) if (!files.includes(key)) problems.push(`revision's file ${key} is missing from storage`);
  return { revisionsVisible: rows.length, downloadedBytes, pendingUploadsLeft: pending.length, storageFiles: files.length };
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'));
}
