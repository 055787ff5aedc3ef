// Posts a realistic Daraja C2B confirmation to a running Betdesk server, so a user can watch a
// payment arrive:  npm run simulate:payment -- --amount 100 --account D2 [--phone 0712345678]
//                  [--msisdn-mode hashed|masked|plain] [--name "JOHN KAMAU"] [--receipt RKL51ZDR4F]
// It reads PORT, WEBHOOK_SECRET and DATA_DIR (local secrets) the way the server does.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { normaliseKenyanPhone } from '@betdesk/contract';
import { loadConfig } from '../apps/api/src/config.ts';
import { darajaTimestamp } from '../apps/api/src/integrations/mpesa/daraja.ts';
import { sha256Hex } from '../apps/api/src/lib/crypto.ts';

const { values } = parseArgs({
  options: {
    amount: { type: 'string' },
    account: { type: 'string', default: '' },
    phone: { type: 'string', default: '0712345678' },
    'msisdn-mode': { type: 'string', default: 'hashed' },
    name: { type: 'string', default: 'JOHN KAMAU' },
    receipt: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const amount = Number(values.amount);
if (!values.amount || !Number.isFinite(amount) || amount <= 0) fail('Give the amount in KES: --amount 100');
const phone = normaliseKenyanPhone(values.phone!) ?? fail(`--phone ${values.phone} is not a Kenyan mobile number`);
const mode = values['msisdn-mode'];
const msisdn =
  mode === 'plain' ? phone : mode === 'masked' ? `${phone.slice(0, 4)} ***** ${phone.slice(-3)}` : mode === 'hashed' ? sha256Hex(phone) : fail('--msisdn-mode is hashed, masked or plain');
const [first = '', middle = '', ...rest] = values.name!.toUpperCase().split(/\s+/);
const config = loadConfig();
const receipt = values.receipt ?? `S${randomBytes(8).toString('hex').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 9)}`;

const body = {
  TransactionType: 'Pay Bill',
  TransID: receipt,
  TransTime: darajaTimestamp(),
  TransAmount: amount.toFixed(2),
  BusinessShortCode: config.mpesa.shortcode ?? '600984',
  BillRefNumber: values.account,
  InvoiceNumber: '',
  OrgAccountBalance: '',
  ThirdPartyTransID: '',
  MSISDN: msisdn,
  FirstName: first,
  MiddleName: rest.length > 0 ? middle : '',
  LastName: rest.length > 0 ? rest.join(' ') : middle,
};

const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
const url = `http://${host}:${config.port}/api/hooks/c2b/confirmation/${config.webhookSecret}`;
const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(
  (error: unknown) => fail(`Could not reach the server on port ${config.port}: ${String(error)}. Is it running (npm start)?`),
);
console.log(`Posted ${receipt}: KES ${amount.toFixed(2)}, account "${values.account}", MSISDN ${mode} -> HTTP ${res.status} ${await res.text()}`);
if (!res.ok) process.exit(1);
