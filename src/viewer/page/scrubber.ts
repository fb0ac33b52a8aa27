import type { ViewerTimeline } from '../viewerTimeline.js';
import { element, setText } from './dom.js';

/** Playback speeds offered, as multiples of the recorded time. */
const SPEEDS = [0.25, 1, 4, 16, 64];
/** The longest pause played as recorded: a longer gap is skipped. */
const MAX_GAP_MS = 1000;

/**
 * The scrubber over the recorded history: a slider from the first message to
 * the last, buttons to step one message back or forth, to the start and to
 * the end (live), and play at a chosen speed of the recorded time.
 */
export class Scrubber {
  readonly root: HTMLElement;
  private readonly range: HTMLInputElement;
  private readonly label: HTMLElement;
  private readonly playButton: HTMLButtonElement;
  private readonly speed: HTMLSelectElement;
  private playing = false;
  private playClock = 0;
  private lastTick = 0;

  constructor(
    private readonly timeline: ViewerTimeline,
    private readonly changed: () => void,
  ) {
    this.range = element('input', 'scrub-range');
    this.range.type = 'range';
    this.range.min = '0';
    this.range.setAttribute('aria-label', 'position in the history');
    this.range.addEventListener('input', () => this.seek(Number(this.range.value)));
    const button = (text: string, name: string, action: () => void): HTMLButtonElement => {
      const made = element('button', 'scrub-button', text);
      made.type = 'button';
      made.dataset.scrub = name;
      made.title = name;
      made.addEventListener('click', action);
      return made;
    };
    this.playButton = button('play', 'play', () => this.togglePlay());
    this.speed = element('select', 'scrub-speed');
    this.speed.setAttribute('aria-label', 'playback speed');
    for (const speed of SPEEDS) {
      const option = element('option', '', `${speed}x`);
      option.value = String(speed);
      option.selected = speed === 1;
      this.speed.append(option);
    }
    this.label = element('span', 'scrub-label');
    this.root = element(
      'section',
      'scrubber',
      button('|<', 'start', () => this.seek(0)),
      button('<', 'back', () => this.seek(this.timeline.position - 1)),
      this.playButton,
      button('>', 'forward', () => this.seek(this.timeline.position + 1)),
      button('>|', 'end', () => this.seek(this.timeline.messages.length)),
      this.range,
      this.speed,
      this.label,
    );
  }

  seek(position: number): void {
    this.timeline.seek(position);
    this.changed();
  }

  /** Advance playback by the time since the last frame; called every frame while playing. */
  tick(now: number): boolean {
    if (!this.playing) return false;
    const elapsed = this.lastTick === 0 ? 0 : now - this.lastTick;
    this.lastTick = now;
    const { messages } = this.timeline;
    let position = this.timeline.position;
    if (position >= messages.length) {
      this.togglePlay();
      return false;
    }
    const next = messages[position]!;
    this.playClock = Math.max(this.playClock, next.at - MAX_GAP_MS);
    this.playClock += elapsed * Number(this.speed.value);
    while (position < messages.length && messages[position]!.at <= this.playClock) position += 1;
    if (position === this.timeline.position) return false;
    this.timeline.seek(position);
    return true;
  }

  render(): void {
    const { messages, position, hello } = this.timeline;
    this.range.max = String(messages.length);
    this.range.value = String(position);
    const live = hello.mode === 'live' && this.timeline.following ? ' · live' : '';
    setText(this.label, `${position} / ${messages.length}${live}`);
    this.root.dataset.position = String(position);
    this.root.dataset.total = String(messages.length);
  }

  private togglePlay(): void {
    this.playing = !this.playing;
    this.playButton.textContent = this.playing ? 'pause' : 'play';
    this.playButton.dataset.playing = String(this.playing);
    this.lastTick = 0;
    if (this.playing) {
      if (this.timeline.position >= this.timeline.messages.length) this.timeline.seek(0);
      this.playClock = this.timeline.messages[this.timeline.position]?.at ?? 0;
    }
    this.changed();
  }
}
