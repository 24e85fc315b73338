import { closeSharedApp } from './index.ts';

/** Root hooks: runs in each worker. The shared app is closed when the worker's files are done. */
export const mochaHooks = {
  async afterAll() {
    // In parallel mode root afterAll runs after each file; the shared app lives on for the next
    // file of this worker and is closed at process exit (its database is dropped by the global teardown).
  },
};

process.once('beforeExit', () => {
  void closeSharedApp();
});
