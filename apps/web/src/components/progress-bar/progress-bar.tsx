import { useProgress } from '@/lib/progress.ts';
import classes from './progress-bar.module.css';

/**
 * The thin bar at the top of the window: blue while requests run, red after a failure. A sight cue
 * only, hidden from screen readers (it sits outside the page's landmarks): each screen announces its
 * own loading (a named status spinner) and a failure comes as a toast.
 */
export function ProgressBar() {
  const status = useProgress();
  return (
    <div
      className={classes.bar}
      data-state={status}
      data-testid="progress-bar"
      aria-hidden
    >
      <div className={classes.fill} />
    </div>
  );
}
