import { join } from 'node:path';
import { declaredEventHandlers, eventHandlersIn } from '@erp/testing';

// The AsyncAPI document says who receives each topic from the declared consumers of @erp/contracts
// (a lib cannot read the apps): this holds them to this service's @EventPattern handlers.
describe('webhook-publisher: its event handlers are the consumers @erp/contracts declares for it', () => {
  it('has exactly the declared groups, topics and event types', () => {
    expect(eventHandlersIn(join(__dirname, '..'))).toEqual(declaredEventHandlers('webhook-publisher'));
  });
});
