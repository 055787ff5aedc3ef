import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '@betdesk/contract';
import toastClasses from './toasts.module.css';

/**
 * Mantine's toast host, loaded with the first toast (toasts shown meanwhile wait in Mantine's store).
 * Bottom right, above the footer: top right covered My Profile and Logout for 3 s.
 */
export default function ToastsHost() {
  return <Notifications autoClose={TOAST_DURATION_MS} position="bottom-right" containerWidth={360} classNames={toastClasses} />;
}
