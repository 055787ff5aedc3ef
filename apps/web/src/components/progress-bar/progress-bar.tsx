import { useProgress } from '@/lib/progress.ts';
import classes from './progress-bar.module.css';

/** The thin bar at the top of the window: blue while requests run, red after a failure. */
export function ProgressBar() {
  const status = useProgress();
  return (
    <div
      className={classes.bar}
      data-state={status}
      data-testid="progress-bar"
      role="progressbar"
      aria-label={status === 'failed' ? 'Last request failed' : 'Loading'}
      aria-busy={status === 'loading'}
      aria-hidden={status === 'idle'}
    >
      <div className={classes.fill} />
    </div>
  );
}
