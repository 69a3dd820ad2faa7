// Reads vitest's JSON report: fails on skipped, todo, failed or zero tests, and prints the
// plain closing line "N passed, N failed" that CI reads.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const problems = [];
if (passed + failed === 0) problems.push('no test ran');
if (skipped > 0) {
  const names = report.testResults
    .flatMap((file) => file.assertionResults.filter((t) => t.status === 'pending' || t.status === 'todo' || t.status === 'skipped').map((t) => `${file.name}: ${t.fullName}`))
    .slice(0, 20);
  problems.push(`${skipped} skipped/todo test(s) under CI=true:\n  ${names.join('\n  ')}`);
}
for (const p of problems) console.error(`ci: ${p}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);
