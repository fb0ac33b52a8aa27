import type { JsonObject } from '../../../src/domain/shared/json.js';

/** The worked example of the seed document, with `pvPeakMw` at bus 6. */
export function workedExampleParams(pvPeakMw = 2.2): JsonObject {
  return {
    scenario: {
      comdata_params: {
        midasmv: { active_mapping: { '3': [['Hospital', 0.427]], '4': [['LargeHotel', 0.913]] } },
      },
      der_params: { midasmv: { mapping: { '6': [['PV', pvPeakMw]] } } },
    },
  };
}
