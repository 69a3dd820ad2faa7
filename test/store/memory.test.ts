import { createMemoryStore } from '../../src/store/index.js';
import { runStoreSuite } from './store-suite.js';

runStoreSuite('memory', { newStore: async () => createMemoryStore() });
runStoreSuite('memory (1000-byte chunks)', { newStore: async () => createMemoryStore({ chunkBytes: 1000 }), propertyRuns: 20 });
