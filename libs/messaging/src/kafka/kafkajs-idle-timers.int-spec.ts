import { createHook } from 'node:async_hooks';
import { Kafka, logLevel } from 'kafkajs';
import { testKafkaBrokers } from '@erp/testing';

/**
 * kafkajs 2.2.4 re-arms a timer with a negative delay (so 1 ms) on every connection after its
 * first answered request, forever: each idle service spent 3-5 % of a core on it. The repository
 * patches it (patches/kafkajs+2.2.4.patch, applied by `npm ci`'s postinstall and in the image
 * build); this fails if the patch is missing or a kafkajs upgrade brings the loop back.
 */
describe('kafkajs as installed', () => {
  it('schedules no timer loop on an idle connection', async () => {
    const kafka = new Kafka({ clientId: 'idle-timers', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.listTopics(); // an answered request is what started the loop
      let timeouts = 0;
      const hook = createHook({
        init: (_id, type) => {
          if (type === 'Timeout') timeouts++;
        },
      }).enable();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      hook.disable();
      // Unpatched: about a thousand in this second. Patched: the sleep above and little else.
      expect(timeouts).toBeLessThan(50);
    } finally {
      await admin.disconnect();
    }
  });
});
