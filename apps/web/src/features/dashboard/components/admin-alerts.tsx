import { AdminGrantAlerts } from './admin-grant-alerts.tsx';
import { ComplianceCalendar } from './compliance-calendar.tsx';
import { PrivacyAlerts } from './privacy-alerts.tsx';
import { SmsProviderAlerts } from './sms-provider-alerts.tsx';
import { TaxTransmissionAlerts } from './tax-transmission-alerts.tsx';

/**
 * The admin-only alerts of the dashboard, in one chunk of their own: the dashboard page loads it
 * only for an admin, so each new alert adds nothing to the first load every staff member pays
 * (the /dashboard budget in apps/web/build/route-sizes.ts). An alert added here must not import
 * from dashboard-page.tsx: that would make the page a shared chunk.
 */
export default function AdminAlerts() {
  return (
    <>
      <PrivacyAlerts enabled />
      <AdminGrantAlerts enabled />
      <ComplianceCalendar enabled />
      <SmsProviderAlerts enabled />
      <TaxTransmissionAlerts enabled />
    </>
  );
}
