/**
 * Creates (or replaces) inventory items through the gateway, `PUT /api/v3/Inventory/{inventoryId}`,
 * a few at a time: order lines may only name items of the company's catalogue. `headers` are the
 * company's v3 JSON request headers.
 */
export async function putInventoryItems(baseUrl: string, headers: Record<string, string>, inventoryIds: string[]): Promise<void> {
  for (let i = 0; i < inventoryIds.length; i += 8) {
    await Promise.all(
      inventoryIds.slice(i, i + 8).map(async (id) => {
        const response = await fetch(`${baseUrl}/api/v3/Inventory/${encodeURIComponent(id)}`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ description: `Item ${id}` }),
        });
        const text = await response.text();
        if (response.status !== 201 && response.status !== 200) throw new Error(`PUT inventory item ${id}: ${response.status} ${text}`);
      }),
    );
  }
}
