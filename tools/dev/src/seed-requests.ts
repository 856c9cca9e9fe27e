/** A customer the seed created through /v1/customer. */
export interface SeedCustomer {
  number: string;
  status: string;
}

/**
 * Sends a write that names customers the seed has just created. No waiting is needed: the
 * sales-order service asks customers-v1 about a customer its event has not brought yet
 * (docs/cross-service-reads.md).
 */
export function sendNamingCustomers(method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, { method, headers, body: JSON.stringify(body) });
}
