import { Module } from '@nestjs/common';
import { InventoryController } from './inventory.controller';
import { InventoryRepository } from './repository/inventory.repository';
import { CheckInventoryReferences } from './use-cases/check-inventory-references';
import { ListInventory } from './use-cases/list-inventory.use-case';
import { PutInventoryItem } from './use-cases/put-inventory-item.use-case';

/**
 * The company's inventory catalogue (`/api/v3/Inventory`). Exports the reference check the order
 * use cases run in their transactions: an order line must name an item that exists.
 */
@Module({
  controllers: [InventoryController],
  providers: [InventoryRepository, ListInventory, PutInventoryItem, CheckInventoryReferences],
  exports: [CheckInventoryReferences],
})
export class InventoryModule {}
