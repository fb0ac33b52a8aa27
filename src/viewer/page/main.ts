/**
 * The viewer page: reads the server's event stream (server-sent events, so
 * the page has no way to send anything back), folds the messages into the
 * timeline, and redraws once per animation frame whatever the rate.
 */
import type { ViewerMessage } from '../viewerMessages.js';
import { ViewerTimeline } from '../viewerTimeline.js';
import { ActorTree } from './actorTree.js';
import { ChartView } from './chartView.js';
import { element, setText } from './dom.js';
import { EventList } from './eventList.js';
import { Scrubber } from './scrubber.js';

const timeline = new ViewerTimeline();
let selected: string | null = null;
let queue: ViewerMessage[][] = [];
let frameAsked = false;

const status = element('span', 'connection', 'connecting…');
const heading = element('span', 'title', '');
const counts = element('span', 'counts', '');
const tree = new ActorTree(timeline, (sid) => {
  selected = sid;
  tree.select(sid);
  askFrame();
});
const chart = new ChartView();
const events = new EventList(timeline);
const scrubber = new Scrubber(timeline, () => askFrame());

document.body.append(
  element('header', 'top', element('strong', '', 'arena view'), heading, counts, status),
  element(
    'main',
    'layout',
    tree.root,
    element('div', 'detail', chart.root, scrubber.root, events.root),
  ),
);

/**
 * What arrives from a busy run redraws the page at most this often (10 times a
 * second, far inside the second it may fall behind); the user's own moves
 * (a click, the scrubber, playing) redraw at the next frame.
 */
const LIVE_FRAME_MS = 100;
let lastFrameAt = Number.NEGATIVE_INFINITY;
let liveTimer: ReturnType<typeof setTimeout> | null = null;

/** Redraw for messages that arrived: at the next frame, or once {@link LIVE_FRAME_MS} passed since the last. */
function askLiveFrame(): void {
  if (frameAsked || liveTimer !== null) return;
  const wait = lastFrameAt + LIVE_FRAME_MS - performance.now();
  if (wait <= 0) {
    askFrame();
    return;
  }
  liveTimer = setTimeout(() => {
    liveTimer = null;
    askFrame();
  }, wait);
}

/** Redraw at the next frame; a hidden page has no frames, so it catches up on a timer. */
function askFrame(): void {
  if (frameAsked) return;
  frameAsked = true;
  if (document.hidden) setTimeout(() => frame(performance.now()), 250);
  else requestAnimationFrame(frame);
}

function frame(now: number): void {
  frameAsked = false;
  lastFrameAt = now;
  const batches = queue;
  queue = [];
  for (const batch of batches) {
    for (const message of batch) if (message.k === 'chart') chart.store(message);
    timeline.receive(batch);
  }
  if (selected === null || !timeline.actors.has(selected)) {
    selected = timeline.roots[0] ?? null;
    tree.select(selected);
  }
  const playing = scrubber.tick(now);
  setText(heading, `${timeline.hello.title} (${timeline.hello.mode})`);
  setText(
    counts,
    `${timeline.actors.size} actors · ${timeline.messages.length + timeline.folded} messages`,
  );
  tree.render();
  if (selected !== null) {
    chart.show(timeline.actors.get(selected), timeline.stateOf(selected));
    events.render(selected);
  }
  scrubber.render();
  document.body.dataset.position = String(timeline.position);
  document.body.dataset.messages = String(timeline.messages.length + timeline.folded);
  document.body.dataset.mode = timeline.hello.mode;
  if (playing) askFrame();
  else if (queue.length > 0) askLiveFrame();
}

const stream = new EventSource('events');
stream.onopen = () => {
  status.textContent = 'connected';
  status.dataset.connected = 'true';
};
stream.onerror = () => {
  status.textContent = stream.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting…';
  status.dataset.connected = 'false';
};
stream.onmessage = (message: MessageEvent<string>) => {
  const batch = JSON.parse(message.data) as ViewerMessage[];
  queue.push(batch);
  if (batch.some((item) => item.k === 'end')) {
    stream.close();
    status.textContent = 'finished: the viewer closed (this page keeps what it received)';
    status.dataset.connected = 'false';
  }
  askLiveFrame();
};
window.addEventListener('scroll', () => askFrame());
document.addEventListener('visibilitychange', () => askFrame());
