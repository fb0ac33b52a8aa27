import {
  createMemoryStoreState,
  openMemoryStore,
} from '../../src/ports/store/memory/memoryStore.js';
import { describeRunStoreContract } from './runStoreContract.js';

// Handles on one state are what processes sharing one store file are.
describeRunStoreContract('memory', {
  async newStore() {
    const state = createMemoryStoreState();
    return (options) => openMemoryStore(state, options);
  },
});
