import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { SmsGatewayAlert } from '@/components/sms-gateway-alert.tsx';
import { useBackupHealth } from '../api/get-backup-health.ts';
import { useMoneyCheck } from '../api/get-money-check.ts';
import { useTaxStatus } from '../api/get-tax-status.ts';
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
  const moneyCheck = useMoneyCheck(true);
  const backup = useBackupHealth(true);
  const tax = useTaxStatus(true);
  return (
    <>
      {moneyCheck.data && !moneyCheck.data.ok && (
        <Alert color="red" title="The nightly money check failed" data-testid="money-check-banner">
          {moneyCheck.data.failures.map((f) => f.check).join('; ')}.{' '}
          <Anchor component={Link} to="/mpesa/reconciliation">
            Open the reconciliation
          </Anchor>
        </Alert>
      )}
      {backup.data?.alert && (
        <Alert color="red" title="Backups need attention" data-testid="backup-banner">
          {backup.data.alert}{' '}
          <Anchor component={Link} to="/backups">
            Open Backups
          </Anchor>
        </Alert>
      )}
      {tax.data?.alert && (
        <Alert color={tax.data.invoicing_on ? 'red' : 'yellow'} title="Tax invoices (KRA eTIMS)" data-testid="tax-banner">
          {tax.data.alert}{' '}
          <Anchor component={Link} to="/tax">
            Open Tax
          </Anchor>
        </Alert>
      )}
      <SmsGatewayAlert enabled backlog linkToLog />
      <PrivacyAlerts enabled />
      <AdminGrantAlerts enabled />
      <ComplianceCalendar enabled />
      <SmsProviderAlerts enabled />
      <TaxTransmissionAlerts enabled />
    </>
  );
}
