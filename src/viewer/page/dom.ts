/** Make an element with a class and children: the page builds its DOM with this only. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = '',
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className !== '') made.className = className;
  made.append(...children);
  return made;
}

/** `1234.5` → `+1.23 s`, `12.3` → `+12.3 ms`: a time offset as the event list shows it. */
export function offsetText(milliseconds: number): string {
  return milliseconds >= 1000
    ? `+${(milliseconds / 1000).toFixed(2)} s`
    : `+${milliseconds.toFixed(1)} ms`;
}

/**
 * Set a node's text only when it changed: the page redraws every frame, and
 * an unchanged text written again still makes the browser lay it out anew.
 */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}
