import { Body, Controller, Get, Header, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompanyId } from '@erp/auth';
import { ApiAuthenticated, ApiJsonResponse, ApiV3Paging } from '@erp/openapi';
import { answerPut, ApiPutWhole, JSON_TYPE } from '../http/put-answer';
import { listRequest } from '../sales-orders/sales-order-paths';
import { PutInventoryItemDto } from './dto/put-inventory-item.dto';
import { INVENTORY_PAGE_SIZE } from './inventory-list.query';
import { ListInventory } from './use-cases/list-inventory.use-case';
import { PutInventoryItem } from './use-cases/put-inventory-item.use-case';

type QueryParams = Record<string, string | string[] | undefined>;

const codes = (name: string, description: string) =>
  ApiQuery({ name, required: false, description, style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } });

/**
 * `/api/v3/Inventory`: the v3 document's inventory summary (`Inventory_GetList_`) and, as an
 * extension the document lacks, `PUT /{inventoryId}` to create or replace an item.
 */
@Controller('api/v3/Inventory')
@ApiTags('Inventory')
@ApiAuthenticated('problem')
export class InventoryController {
  constructor(
    private readonly listInventory: ListInventory,
    private readonly putItem: PutInventoryItem,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'Inventory_GetList_',
    summary: 'Gets an inventory summary for inventory items',
    description:
      'Items in creation order. Parameter names match in any case. `warehouseId` / `locationId` keep the items stocked there and show only those warehouses (locations); ' +
      '`modifiedSince` keeps the items whose warehouse availability changed at or after it; `attributeFilter=ID:value` (repeated: the same id is an alternative, different ids must all match).',
  })
  @codes('inventoryId', 'Items to include (repeated); all when absent')
  @codes('warehouseId', 'Warehouses to include (repeated); all when absent')
  @codes('locationId', 'Locations to include (repeated); all when absent')
  @ApiQuery({
    name: 'expand',
    required: false,
    description: '`Location`, `Attribute`, `All` or `None` (comma-separated and/or repeated, any case); unknown values are 400',
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string', enum: ['None', 'Location', 'Attribute', 'All'] } },
  })
  @ApiQuery({ name: 'modifiedSince', required: false, description: 'ISO 8601; UTC unless an offset is given; inclusive', schema: { type: 'string', format: 'date-time' } })
  @codes('attributeFilter', '`attribute-id:attribute-value`, repeated, e.g. `WEBSHOP:1`')
  @ApiV3Paging(INVENTORY_PAGE_SIZE, INVENTORY_PAGE_SIZE)
  @ApiJsonResponse(200, 'A page of inventory items', 'InventoryItemAvailabilityDtoPagedResult')
  @Header('content-type', JSON_TYPE)
  async GetList_(@CompanyId() companyId: string, @Query() query: QueryParams, @Req() request: FastifyRequest): Promise<string> {
    return this.listInventory.execute(companyId, query, listRequest(request));
  }

  @Put(':inventoryId')
  @ApiOperation({
    operationId: 'Inventory_Put_inventoryId',
    summary: 'Creates or replaces an inventory item (an extension of the v3 document)',
    description:
      'The whole item: what the body leaves out is empty afterwards. 201 when the item is new, 200 when it was replaced; the body is the item with its locations and attributes. ' +
      'Order lines may reference an item once it exists. A warehouse or location keeps its `lastModified` when its figures are unchanged.',
  })
  @ApiParam({ name: 'inventoryId', description: 'The item id (1 to 30 characters)', schema: { type: 'string' } })
  @ApiPutWhole('InventoryItemPut', 'InventoryItemAvailabilityDto')
  async Put_inventoryId(
    @CompanyId() companyId: string,
    @Param('inventoryId') inventoryId: string,
    @Body() body: PutInventoryItemDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return answerPut(reply, await this.putItem.execute(companyId, inventoryId, body), `/api/v3/Inventory?inventoryId=${encodeURIComponent(inventoryId)}`);
  }
}
