// Walks the USSD menu of a running Betdesk server as a phone would, posting each step form-encoded
// as Africa's Talking does (the whole path typed so far in `text`), then the end-of-session
// notification:  npm run simulate:ussd -- --phone 0712345678 [--code *384*22#]
// It reads PORT, WEBHOOK_SECRET and DATA_DIR (local secrets) the way the server does.
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { normaliseKenyanPhone } from '@betdesk/contract';
import { loadConfig } from '../apps/api/src/config.ts';

const { values } = parseArgs({
  options: {
    phone: { type: 'string' },
    code: { type: 'string', default: '*384*22#' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!values.phone) fail('Give the phone that dials: --phone 0712345678');
const phone = normaliseKenyanPhone(values.phone) ?? fail(`--phone ${values.phone} is not a Kenyan mobile number`);

const config = loadConfig();
const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
const base = `http://${host}:${config.port}/api/hooks/ussd`;
const sessionId = `ATUid_${randomBytes(12).toString('hex')}`;
const started = Date.now();

async function post(url: string, form: Record<string, string>): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  }).catch((error: unknown) => fail(`Could not reach the server on port ${config.port}: ${String(error)}. Is it running (npm start)?`));
  const body = await res.text();
  if (!res.ok) fail(`HTTP ${res.status} ${body}`);
  return body;
}

const terminal = createInterface({ input: process.stdin });
// Read through the iterator, which keeps lines typed (or piped) ahead of the prompt.
const typedLines = terminal[Symbol.asyncIterator]();
const inputs: string[] = [];
let status = 'Incomplete';
let lastResponse = '';
for (let hops = 1; ; hops += 1) {
  const text = inputs.join('*');
  const stepStarted = Date.now();
  lastResponse = await post(`${base}/${config.webhookSecret}`, {
    sessionId,
    serviceCode: values.code!,
    phoneNumber: `+${phone}`,
    networkCode: '63902',
    text,
  });
  const tookMs = Date.now() - stepStarted;
  console.log(`\n${lastResponse.replace(/^(CON|END) /, '')}\n(${lastResponse.slice(0, 3)}, ${lastResponse.length} characters, ${tookMs} ms)`);
  if (!lastResponse.startsWith('CON ')) {
    status = 'Success';
    break;
  }
  process.stdout.write('> ');
  const typed = await typedLines.next();
  if (typed.done) break; // Ctrl-D: the punter walked away
  inputs.push(String(typed.value).trim());
  if (hops > 100) break;
}
terminal.close();
const ended = await post(`${base}/session-end/${config.webhookSecret}`, {
  date: new Date().toISOString().replace('T', ' ').slice(0, 19),
  sessionId,
  serviceCode: values.code!,
  networkCode: '63902',
  phoneNumber: `+${phone}`,
  status,
  cost: 'KES 0.0000',
  durationInMillis: String(Date.now() - started),
  hopsCount: String(inputs.length + 1),
  input: inputs.join('*'),
  lastAppResponse: lastResponse,
  errorMessage: '',
});
console.log(`Session ${status.toLowerCase()}; end-of-session notification -> ${ended}`);
