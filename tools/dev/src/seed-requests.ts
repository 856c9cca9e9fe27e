/** A customer the seed created through /v1/customer. */
export interface SeedCustomer {
  number: string;
  status: string;
}

/**
 * Sends a write that names customers, waiting for them to reach the sales-order service: it learns
 * customers from the customer events, so right after /v1/customer created them a write naming them
 * can answer 400 `0007-UnknownReference` for a moment. Any other answer is returned as it is.
 */
export async function sendWhenCustomersKnown(method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body: unknown, waitMs: number): Promise<Response> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const response = await fetch(url, { method, headers, body: JSON.stringify(body) });
    if (response.status !== 400 || Date.now() > deadline) return response;
    const text = await response.text();
    if (!text.includes('0007-UnknownReference')) return new Response(text, { status: 400 });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
