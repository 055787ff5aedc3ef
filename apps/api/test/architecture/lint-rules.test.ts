import { join } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
// @ts-expect-error a plain-JS ESLint plugin without types
import apiModules from '../../../../eslint/api-modules.js';
import { apiRoot } from './import-graph.ts';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });
const inModule = (module: string, file = 'service.ts') => join(apiRoot, 'src/modules', module, file);
const owners = { mpesaPayments: 'mpesa', smsMessages: 'sms', bonuses: 'bonuses' };

describe('lint rules of decision 028', () => {
  tester.run('module-boundary', apiModules.rules['module-boundary'], {
    valid: [
      { filename: inModule('bets'), code: "import { audit } from '../audit/service.ts';" },
      { filename: inModule('mpesa', 'stk-query.ts'), code: "import { afterCommit } from './ingest.ts';" },
      { filename: join(apiRoot, 'src/app.ts'), code: "import { betRoutes } from './modules/bets/routes.ts';" },
      { filename: join(apiRoot, 'src/jobs/jobs.ts'), code: "import { rows } from '../db/rows.ts';" },
    ],
    invalid: [
      { filename: inModule('bets'), code: "import { x } from '../clients/queries.ts';", errors: [{ messageId: 'notService' }] },
      { filename: inModule('bets'), code: "import { queueSms } from '../sms/outbox.ts';", errors: [{ messageId: 'notService' }] },
      { filename: inModule('bets'), code: "export * from '../clients/queries.ts';", errors: [{ messageId: 'notService' }] },
      { filename: inModule('bets'), code: "const m = await import('../clients/queries.ts');", errors: [{ messageId: 'notService' }] },
      { filename: inModule('bets'), code: "import { clientRoutes } from '../clients/routes.ts';", errors: [{ messageId: 'routes' }] },
      { filename: join(apiRoot, 'src/http/auth-hook.ts'), code: "import { actorForToken } from '../modules/auth/service.ts';", errors: [{ messageId: 'upward' }] },
      { filename: join(apiRoot, 'src/job-handlers.ts'), code: "import { x } from './modules/sms/outbox.ts';", errors: [{ messageId: 'notService' }] },
      { filename: join(apiRoot, 'src/jobs/jobs.ts'), code: "import { x } from '../modules/sms/service.ts';", errors: [{ messageId: 'upward' }] },
      { filename: join(apiRoot, 'src/db/list.ts'), code: "import { jobHandlers } from '../job-handlers.ts';", errors: [{ messageId: 'upward' }] },
    ],
  });

  tester.run('no-leaking-reexport', apiModules.rules['no-leaking-reexport'], {
    valid: [
      { filename: inModule('mpesa'), code: "export { receiveStkCallback } from './stk-callback.ts';" },
      { filename: inModule('mpesa'), code: "import * as q from './queries.ts'; export function paymentById(db, id) { return q.paymentById(db, id); }" },
      {
        filename: inModule('clients'),
        code: "export { inScope } from './queries.ts';",
        options: [{ allow: [{ file: 'modules/clients/service.ts', reason: 'moving' }] }],
      },
    ],
    invalid: [
      { filename: inModule('mpesa'), code: "export { paymentById } from './queries.ts';", errors: [{ messageId: 'leak' }] },
      { filename: inModule('mpesa'), code: "export * from './queries.ts';", errors: [{ messageId: 'leak' }] },
      { filename: inModule('mpesa'), code: "import { paymentById } from './queries.ts'; export { paymentById };", errors: [{ messageId: 'leak' }] },
      { filename: inModule('mpesa'), code: "import * as q from './queries.ts'; export { q };", errors: [{ messageId: 'leak' }] },
      { filename: inModule('sms'), code: "export { insertFanout } from './queries/outbox.ts';", errors: [{ messageId: 'leak' }] },
      { filename: inModule('mpesa'), code: "export { mpesaPayments } from '../../db/schema/index.ts';", errors: [{ messageId: 'leak' }] },
      { filename: inModule('mpesa'), code: "export { audit } from '../audit/service.ts';", errors: [{ messageId: 'leak' }] },
    ],
  });

  tester.run('own-tables-only', apiModules.rules['own-tables-only'], {
    valid: [
      { filename: inModule('mpesa'), options: [{ owners }], code: "import { mpesaPayments } from '../../db/schema/index.ts'; tx.insert(mpesaPayments);" },
      { filename: inModule('bets'), options: [{ owners }], code: "import { mpesaPayments } from '../../db/schema/index.ts'; tx.select().from(mpesaPayments);" },
      {
        filename: inModule('bets'),
        options: [{ owners, allow: [{ module: 'bets', tables: ['bonuses'], reason: 'r' }] }],
        code: "import { bonuses } from '../../db/schema/index.ts'; tx.insert(bonuses);",
      },
    ],
    invalid: [
      {
        filename: inModule('bets'),
        options: [{ owners }],
        code: "import { mpesaPayments } from '../../db/schema/index.ts'; tx.update(mpesaPayments).set({});",
        errors: [{ messageId: 'foreign' }],
      },
      {
        filename: inModule('bets'),
        options: [{ owners }],
        code: "import { smsMessages } from '../../db/schema/index.ts'; sql`insert into ${smsMessages} (body) values ('x')`;",
        errors: [{ messageId: 'foreign' }],
      },
      { filename: inModule('bets'), options: [{ owners }], code: "db.query(`delete from sms_messages where id = $1`);", errors: [{ messageId: 'foreign' }] },
      { filename: inModule('bets'), options: [{ owners }], code: "db.query('update mpesa_payments p set status = 1');", errors: [{ messageId: 'foreign' }] },
      {
        filename: inModule('bets'),
        options: [{ owners }],
        code: "import { ledgerEntries } from '../../db/schema/index.ts'; tx.delete(ledgerEntries);",
        errors: [{ messageId: 'unowned' }],
      },
    ],
  });
});
