import { beforeEach } from 'vitest';
import { fixedClock, type ManualClock } from '../../src/ports/runtime/clock.js';
import type { CalibrationStore } from '../../src/ports/store/judgeStore.js';
import { memoryCalibrationStore } from '../../src/ports/store/memory/memoryCalibrations.js';
import { describeCalibrationStoreContract } from './calibrationStoreContract.js';

let store: CalibrationStore;
let clock: ManualClock;
beforeEach(() => {
  clock = fixedClock(new Date('2026-01-01T00:00:00.000Z'));
  store = memoryCalibrationStore({ clock });
});

describeCalibrationStoreContract('memory', () => ({ store, clock }));
