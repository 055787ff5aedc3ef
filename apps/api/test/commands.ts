import { spawn } from 'node:child_process';

export interface CommandRun {
  status: number | null;
  out: string;
  err: string;
}

/**
 * Runs a command as an operator would and collects what it printed, without holding the test
 * process's event loop meanwhile (spawnSync would: on a busy machine a command that boots the app
 * took past Vitest's fixed 60 s for a worker's report, and the run failed; decision 102). `timeoutMs`
 * bounds a hung command: it is killed and its status is null.
 */
export function runCommand(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out, err });
    });
  });
}
