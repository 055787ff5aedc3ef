/**
 * The fake OSCU in a process of its own, for the tax backlog scenario: its memory (it keeps every sale
 * it received, to answer a resend as KRA does) is then not counted as the invoice job's. Prints
 * `{"baseUrl": ...}` on one line, and stops when its parent closes stdin.
 */
import { startFakeOscu } from '../apps/api/src/integrations/etims/fake-oscu.ts';

const fake = await startFakeOscu();
process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void fake.close().then(() => process.exit(0));
});
