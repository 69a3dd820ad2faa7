// Loaded with `node --import` by the edge-input test: when the process exits, write its peak
// resident set size (KiB, from getrusage) to $TRC_PEAK_RSS_FILE. Nothing else is touched.
import { writeFileSync } from 'node:fs';

const file = process.env.TRC_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      writeFileSync(file, String(process.resourceUsage().maxRSS));
    } catch {
      // The working directory may be gone; the test then reports the RSS as unknown.
    }
  });
}
