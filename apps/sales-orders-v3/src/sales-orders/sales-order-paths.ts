import type { FastifyRequest } from 'fastify';
import { PG_INTEGER_MAX } from '@erp/database';
import { DETAIL_CODES, NotFoundError, ValidationFailedError } from '@erp/errors';
import { isOrderType, type ListRequest, ORDER_TYPE_CODES, type OrderType } from '@erp/sales-orders-queries';
import type { OrderKey } from './repository/sales-orders.repository';

/** What the controller reads from a request's path, before anything reaches a use case. */

const ORDER_ID_IN_PATH = /^[A-Za-z0-9._-]{1,15}$/;
const LINE_ID_IN_PATH = /^[1-9]\d{0,9}$/;

/** An order path that cannot exist (unknown type, impossible id) is simply not found; it never reaches SQL. */
export function orderKey(companyId: string, type: string, orderId: string): OrderKey {
  if (!isOrderType(type) || !ORDER_ID_IN_PATH.test(orderId)) {
    throw new NotFoundError(`Sales order ${type.slice(0, 10)} ${orderId.slice(0, 20)}`);
  }
  return { companyId, type, orderId };
}

/** A line id that no line column can hold is not found either. */
export function lineIdOf(key: OrderKey, lineId: string): number {
  if (!LINE_ID_IN_PATH.test(lineId) || Number(lineId) > PG_INTEGER_MAX) {
    throw new NotFoundError(`Line ${lineId.slice(0, 12)} of sales order ${key.type} ${key.orderId}`);
  }
  return Number(lineId);
}

/** Listing a type that does not exist is a client error, not an empty list. */
export function listType(type: string): OrderType {
  if (!isOrderType(type)) {
    throw ValidationFailedError.of('type', `must be one of ${ORDER_TYPE_CODES.join(', ')}`, DETAIL_CODES.unknownReference);
  }
  return type;
}

/** The path and raw query a list's `nextPage` link is built from. */
export function listRequest(request: FastifyRequest): ListRequest {
  const url = request.url;
  const q = url.indexOf('?');
  return { path: q < 0 ? url : url.slice(0, q), rawQuery: q < 0 ? '' : url.slice(q + 1) };
}
