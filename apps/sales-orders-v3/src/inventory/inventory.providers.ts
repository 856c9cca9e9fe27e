import type { Provider } from '@nestjs/common';
import { InventoryRepository } from './repository/inventory.repository';
import { CheckInventoryReferences } from './use-cases/check-inventory-references.use-case';
import { ListInventory } from './use-cases/list-inventory.use-case';
import { PutInventoryItem } from './use-cases/put-inventory-item.use-case';

/**
 * The company's inventory catalogue (`/api/v3/Inventory`): its use cases (one per operation),
 * `CheckInventoryReferences` (the rule that an order line or a price names an item of the
 * catalogue, run by those use cases in their transactions), and the repository.
 */
export const INVENTORY_PROVIDERS: Provider[] = [InventoryRepository, ListInventory, PutInventoryItem, CheckInventoryReferences];
