/**
 * CPU time, read from Linux's /proc, for the ingestion scenario (issue 33): a rate moves with whatever
 * else the machine does, the CPU a confirmation costs much less. Elsewhere than Linux both answer null
 * and the figures leave it out.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;
function tickMs(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return 1000 / ticksPerSecond;
}

/** User and system CPU of these processes so far, in ms (fields 14 and 15 of /proc/PID/stat). */
function processesCpuMs(pids: number[]): number | null {
  try {
    let ticks = 0;
    for (const pid of pids) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * tickMs();
  } catch {
    return null;
  }
}

/** CPU the whole machine has been busy so far, all cores together, in ms (/proc/stat less idle and iowait). */
function machineBusyCpuMs(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, ...values] = line.trim().split(/\s+/);
    const n = values.slice(0, 8).map(Number);
    const busy = n.reduce((a, b) => a + b, 0) - n[3]! - n[4]!;
    return busy * tickMs();
  } catch {
    return null;
  }
}

/** What a stretch of work costs: make the meter before it (with the processes to watch) and `stop()` it after. */
export function cpuMeter(pids: number[] = []) {
  const process0 = processesCpuMs(pids);
  const machine0 = machineBusyCpuMs();
  return {
    stop(): { processMs: number | null; machineMs: number | null } {
      const process1 = processesCpuMs(pids);
      const machine1 = machineBusyCpuMs();
      return {
        processMs: process0 === null || process1 === null || pids.length === 0 ? null : process1 - process0,
        machineMs: machine0 === null || machine1 === null ? null : machine1 - machine0,
      };
    },
  };
}
