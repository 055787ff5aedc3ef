// Posts an incoming SMS to a running Betdesk server, form-encoded as Africa's Talking posts it, so a
// user can watch a keyword work:  npm run simulate:sms -- --from 0712345678 --text STOP
//                                 [--to 22384] [--id ATXid_...]
// or an Africa's Talking opt-out notice:  npm run simulate:sms -- --from 0712345678 --optout [--sender BETDESK]
// It reads PORT, WEBHOOK_SECRET and DATA_DIR (local secrets) the way the server does.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { normaliseKenyanPhone } from '@betdesk/contract';
import { loadConfig } from '../apps/api/src/config.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    text: { type: 'string' },
    to: { type: 'string', default: '22384' },
    id: { type: 'string' },
    optout: { type: 'boolean', default: false },
    sender: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!values.from) fail('Give the sender: --from 0712345678');
const phone = normaliseKenyanPhone(values.from) ?? fail(`--from ${values.from} is not a Kenyan mobile number`);
if (!values.optout && values.text === undefined) fail('Give the message: --text STOP (or --optout for an opt-out notice)');

const config = loadConfig();
const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
const base = `http://${host}:${config.port}/api/hooks/sms`;
const [url, form, what] = values.optout
  ? [
      `${base}/optout/${config.webhookSecret}`,
      { senderId: values.sender ?? config.sms.africasTalking?.senderId ?? 'BETDESK', phoneNumber: `+${phone}` },
      `opt-out of +${phone}`,
    ]
  : [
      `${base}/inbound/${config.webhookSecret}`,
      {
        from: `+${phone}`,
        to: values.to!,
        text: values.text!,
        date: new Date().toISOString().replace('T', ' ').slice(0, 19),
        id: values.id ?? `ATXid_${randomBytes(12).toString('hex')}`,
        linkId: '',
        networkCode: '63902',
      },
      `"${values.text}" from +${phone}`,
    ];

const res = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(form).toString(),
}).catch((error: unknown) => fail(`Could not reach the server on port ${config.port}: ${String(error)}. Is it running (npm start)?`));
console.log(`Posted ${what} -> HTTP ${res.status} ${await res.text()}`);
if (!res.ok) process.exit(1);
