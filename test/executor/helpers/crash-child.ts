/**
 * A real executor process for the SIGKILL tests: it starts one charge and reports on stdout when
 * the request was sent (and, for `commit`, committed); the parent then kills it with SIGKILL.
 * argv: <service db> <store db> <scope> <commit|before_commit> <honoursKey: 0|1>
 */
import { createExecutor } from '../../../src/executor/index.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import { chargeTool, openPaymentService } from './payment-service.js';

const [servicePath, storePath, scope, mode, honours] = process.argv.slice(2) as [string, string, string, string, string];
const service = openPaymentService(servicePath, {
  honoursKey: honours === '1',
  onStage: (stage) => {
    if (mode === 'commit' && stage === 'committed') process.stdout.write('COMMITTED\n');
    if (mode === 'before_commit' && stage === 'sent') process.stdout.write('SENT\n');
  },
});
const store = await openSqliteStore({ path: storePath });
const executor = createExecutor({
  tools: [chargeTool(service, { honoursKey: honours === '1', timeoutMs: 60_000, faults: () => (mode === 'commit' ? 'commit_then_timeout' : 'hang') })],
  store,
  // A stable instance id: the restarted executor recovers this one's entries without waiting for the lease.
  lease: { instanceId: 'crash-test-executor' },
});
process.stdout.write('READY\n');
await executor.call({ call_id: `call_${scope}`, tool_name: 'payment_charge', args: { customer: 'cus_crash', amount: 4200 }, scope }, { id: 'user_1' });
process.stdout.write('UNEXPECTED_END\n');
