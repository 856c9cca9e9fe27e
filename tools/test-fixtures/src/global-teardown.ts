import { stopTestFixtures } from './fixture-runner';

/** Stops the shared fixtures started by global-setup.ts (and deletes the embedded cluster). */
export default async function globalTeardown(): Promise<void> {
  await stopTestFixtures();
}
