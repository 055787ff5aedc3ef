import pino from 'pino';
import { createServer } from './server.ts';
import { readConfigOrExit, waitForDatabaseOrExit } from './process-start.ts';
import { loggerOptions } from './http/logger.ts';

const config = readConfigOrExit();
const logger = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
await waitForDatabaseOrExit(config);
const { app, boot } = await createServer(config, logger);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // Stop accepting, let requests in flight and running jobs finish, within a bound.
    setTimeout(() => {
      logger.error({ seconds: config.shutdownTimeoutSeconds }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, (config.shutdownDrainSeconds + config.shutdownTimeoutSeconds) * 1000).unref();
    app.startDraining();
    new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000)).then(() => app.close()).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
const shownHost = config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host;
const lines = [`Betdesk is running on http://${shownHost}:${config.port}`];
if (boot.admin?.password) {
  lines.push(`First admin created: ${boot.admin.email} / ${boot.admin.password}`, 'This password is shown only once.');
} else if (boot.admin) {
  lines.push(`First admin created: ${boot.admin.email} (password from ADMIN_PASSWORD)`);
}
if (boot.demoSeeded) lines.push('Demo data loaded (staff accounts use the password betdesk-demo).');
console.log(`\n${lines.join('\n')}\n`);
