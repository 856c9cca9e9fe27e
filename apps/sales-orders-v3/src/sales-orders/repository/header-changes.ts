import { EMPTY_ADDRESS, EMPTY_CONTACT, type ViewColumns } from './order-records';

/**
 * The header columns a PATCH sets, SQL-ready; a key that is absent is left as it is. `billing`
 * and `shipping` are merged part by part, `paymentSettings` key by key, into the stored jsonb.
 */
export interface HeaderChanges extends ViewColumns {
  description?: string | null;
  note?: string | null;
  currencyId?: string | null;
  status?: string;
  orderDate?: string | null;
  requestOn?: string | null;
  cancelBy?: string | null;
  customerId?: string;
  customerName?: string;
  customerOrder?: string | null;
  customerRefNo?: string | null;
  billing?: object;
  shipping?: object;
  paymentSettings?: object;
  /** How many lines the PATCH inserts: their ids are drawn by moving `last_line_id` on. */
  insertedLines?: number;
}

const COLUMNS: Record<Exclude<keyof HeaderChanges, 'billing' | 'shipping' | 'paymentSettings' | 'insertedLines'>, string> = {
  description: 'description = :description',
  note: 'note = :note',
  currencyId: 'currency_id = :currencyId',
  status: 'status = :status',
  orderDate: 'order_date = :orderDate::timestamptz',
  requestOn: 'request_on = :requestOn::timestamptz',
  cancelBy: 'cancel_by = :cancelBy::timestamptz',
  customerId: 'customer_id = :customerId',
  customerName: 'customer_name = :customerName',
  customerOrder: 'customer_order = :customerOrder',
  customerRefNo: 'customer_ref_no = :customerRefNo',
  salesPersonId: `sales_person_id = nullif(:salesPersonId, '')`,
  commissionPercent: 'commission_percent = :commissionPercent::numeric',
  discounts: 'discounts = :discounts::jsonb',
  taxes: 'taxes = :taxes::jsonb',
  rotRut: 'rot_rut = :rotRut::jsonb',
  shipments: 'shipments = :shipments::jsonb',
  freightCost: 'freight_cost = :freightCost::numeric',
  freightPremium: 'freight_premium = :freightPremium::numeric',
  freightTaxCategoryId: `freight_tax_category_id = nullif(:freightTaxCategoryId, '')`,
};

/** jsonb merge of a `billing`/`shipping` PATCH: each sent part is merged field by field into the stored one. */
function mergeAddressAndContact(column: 'billing' | 'shipping'): string {
  return `${column} = ${column} || (
      SELECT coalesce(jsonb_object_agg(e.key,
               coalesce(nullif(${column} -> e.key, 'null'::jsonb),
                        CASE e.key WHEN 'address' THEN '${JSON.stringify(EMPTY_ADDRESS)}'::jsonb
                                   ELSE '${JSON.stringify(EMPTY_CONTACT)}'::jsonb END) || e.value), '{}'::jsonb)
      FROM jsonb_each(:${column}::jsonb) AS e)`;
}

/** The SET assignments of a header PATCH and their named parameters. */
export function headerAssignments(changes: HeaderChanges): { assignments: string[]; parameters: Record<string, unknown> } {
  const assignments: string[] = [];
  const parameters: Record<string, unknown> = {};
  for (const [key, assignment] of Object.entries(COLUMNS) as Array<[keyof typeof COLUMNS, string]>) {
    if (changes[key] === undefined) continue;
    assignments.push(assignment);
    parameters[key] = changes[key];
  }
  for (const column of ['billing', 'shipping'] as const) {
    if (changes[column] === undefined) continue;
    assignments.push(mergeAddressAndContact(column));
    parameters[column] = JSON.stringify(changes[column]);
  }
  if (changes.paymentSettings !== undefined) {
    assignments.push('payment_settings = payment_settings || :paymentSettings::jsonb');
    parameters.paymentSettings = JSON.stringify(changes.paymentSettings);
  }
  if (changes.insertedLines) {
    assignments.push('last_line_id = last_line_id + :insertedLines::int');
    parameters.insertedLines = changes.insertedLines;
  }
  return { assignments, parameters };
}
