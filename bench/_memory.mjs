// Preloaded into a measured process (node --expose-gc --import): every 250 ms a full GC and the live
// heap after it, so the figure is what the process retains, not when V8 chose to collect; printed at exit
// with the peak resident memory.
let maxLiveHeap = 0;
const sample = () => {
  globalThis.gc?.();
  maxLiveHeap = Math.max(maxLiveHeap, process.memoryUsage().heapUsed);
};
setInterval(sample, 250).unref();
process.on('exit', () => {
  sample();
  process.stderr.write(
    `max-rss-kb ${process.resourceUsage().maxRSS} max-live-heap ${maxLiveHeap}\n`,
  );
});
