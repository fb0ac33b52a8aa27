import { valueLabel } from '../activeStates.js';
import type { ViewerTimeline } from '../viewerTimeline.js';
import { element, offsetText } from './dom.js';

/** Rows the list shows: the latest before the scrubbed point. */
const SHOWN = 200;
/** Longest payload text shown in a row (the title holds it whole). */
const PAYLOAD_CHARS = 240;

/**
 * The selected actor's events and state changes up to the scrubbed point,
 * newest first: time, type, payload (the server already redacted secrets).
 */
export class EventList {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private shown = '';

  constructor(private readonly timeline: ViewerTimeline) {
    this.list = element('ol', 'events');
    this.root = element('section', 'event-pane', element('h2', '', 'events'), this.list);
  }

  render(sid: string | null): void {
    if (sid === null) return;
    const indices = this.timeline.indicesOf(sid);
    const position = this.timeline.position;
    let end = indices.length;
    while (end > 0 && indices[end - 1]! >= position) end -= 1;
    const key = `${sid}|${end}|${indices.length}`;
    if (key === this.shown) return;
    this.shown = key;
    const rows = indices
      .slice(Math.max(0, end - SHOWN), end)
      .reverse()
      .map((index) => {
        const message = this.timeline.messages[index]!;
        const time = element('span', 'event-time', offsetText(message.at));
        if (message.k === 'event') {
          const payload = JSON.stringify(message.payload);
          const text = element(
            'span',
            'event-payload',
            payload.length > PAYLOAD_CHARS ? `${payload.slice(0, PAYLOAD_CHARS)}…` : payload,
          );
          text.title = payload;
          const row = element(
            'li',
            'event',
            time,
            element('span', 'event-type', message.type),
            text,
          );
          row.dataset.seq = String(message.seq);
          return row;
        }
        const what =
          message.k === 'snapshot'
            ? `state ${valueLabel(message.value, message.status)}${message.status === 'active' ? '' : ` (${message.status})`}`
            : `started (${message.machine ?? 'logic'})`;
        const row = element('li', `event ${message.k}`, time, element('span', 'event-type', what));
        row.dataset.seq = String(message.seq);
        return row;
      });
    this.list.replaceChildren(...rows);
  }
}
