import type { AnyStateMachine } from 'xstate';
import type { TraceRecord } from '../actors/inspection/traceRecord.js';
import { machineGraph } from '../diagram/machineGraph.js';
import type { JsonValue } from '../domain/shared/json.js';
import { redactPayload } from './redactPayload.js';
import type { ViewerCharts } from './viewerCharts.js';
import type { ActorLineMessage } from './viewerMessages.js';

/**
 * The viewer messages of a recorded trace, in its order: an actor per
 * `@xstate.actor` record, an event per `@xstate.event` (payload redacted), a
 * snapshot per `@xstate.snapshot`: the records `arena trace` builds its
 * timeline from, so a page stepping through them shows the states `arena
 * trace --json` lists. A trace holds no machine definitions: the machines
 * given (arena's own, for `arena view`) are drawn by their id, others are
 * listed without a chart.
 *
 * @example
 * ```ts
 * traceMessages(parseTrace(text, 'trace.jsonl'), charts, [simulationControllerMachine]).slice(0, 2);
 * // [ { k: 'actor', seq: 0, at: 0.4, sid: 'x:0', id: 'x:0', machine: 'simulationController', parent: null, chart: 'simulationController' },
 * //   { k: 'snapshot', seq: 1, at: 0.5, sid: 'x:0', event: 'xstate.init', value: 'idle', status: 'active' } ]
 * ```
 */
export function traceMessages(
  records: readonly TraceRecord[],
  charts: ViewerCharts,
  knownMachines: Iterable<AnyStateMachine>,
): ActorLineMessage[] {
  const machines = new Map([...knownMachines].map((machine) => [machine.id, machine]));
  const chartKeys = new Map<string, string | null>();
  const chartOf = (machineId: string | null): string | null => {
    if (machineId === null) return null;
    if (!chartKeys.has(machineId)) {
      const machine = machines.get(machineId);
      chartKeys.set(
        machineId,
        machine === undefined ? null : charts.addGraph(machineGraph(machine)),
      );
    }
    return chartKeys.get(machineId) ?? null;
  };
  const messages: ActorLineMessage[] = [];
  for (const record of records) {
    const base = { seq: messages.length, at: record.at, sid: record.sessionId };
    if (record.type === '@xstate.actor') {
      messages.push({
        ...base,
        k: 'actor',
        id: typeof record.actorId === 'string' ? record.actorId : record.sessionId,
        machine: record.machineId ?? null,
        parent: record.parentId ?? null,
        chart: chartOf(record.machineId ?? null),
      });
    } else if (record.type === '@xstate.event') {
      messages.push({
        ...base,
        k: 'event',
        type: eventType(record.event) ?? '(untyped)',
        payload: redactPayload(record.event ?? null),
        source: record.sourceId ?? null,
      });
    } else if (record.type === '@xstate.snapshot' && record.snapshot !== null) {
      messages.push({
        ...base,
        k: 'snapshot',
        event: eventType(record.event),
        value: record.snapshot.value,
        status: record.snapshot.status,
      });
    }
  }
  return messages;
}

function eventType(event: JsonValue | undefined): string | null {
  if (typeof event === 'object' && event !== null && !Array.isArray(event)) {
    return typeof event.type === 'string' ? event.type : null;
  }
  return null;
}
