// Preloaded into a measured process (node --import): its peak resident memory, printed as it exits.
process.on('exit', () => {
  process.stderr.write(`max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
