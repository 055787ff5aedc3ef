import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { SmsGatewayBanners } from '@/components/sms-gateway-banners.tsx';
import { useAdminAlerts } from '../api/get-admin-alerts.ts';
import { AdminGrantAlerts } from './admin-grant-alerts.tsx';
import { ComplianceCalendar } from './compliance-calendar.tsx';
import { PrivacyAlerts } from './privacy-alerts.tsx';
import { SmsProviderAlerts } from './sms-provider-alerts.tsx';
import { TaxTransmissionAlerts } from './tax-transmission-alerts.tsx';

/**
 * The admin-only alerts of the dashboard, in one chunk of their own: the dashboard page loads it
 * only for an admin, so each new alert adds nothing to the first load every staff member pays
 * (the /dashboard budget in apps/web/build/route-sizes.ts). Every alert comes from one request,
 * GET /api/dashboard/admin-alerts, with one small schema (decision 078): an alert added here adds
 * its fields to that answer, not another module's schemas to this chunk. An alert must not import
 * from dashboard-page.tsx: that would make the page a shared chunk.
 */
export default function AdminAlerts() {
  const alerts = useAdminAlerts().data;
  if (!alerts) return null;
  const { money_check: moneyCheck, backup, tax } = alerts;
  return (
    <>
      {moneyCheck && !moneyCheck.ok && (
        <Alert color="red" title="The nightly money check failed" data-testid="money-check-banner">
          {moneyCheck.failures.map((f) => f.check).join('; ')}.{' '}
          <Anchor component={Link} to="/mpesa/reconciliation">
            Open the reconciliation
          </Anchor>
        </Alert>
      )}
      {backup?.alert && (
        <Alert color="red" title="Backups need attention" data-testid="backup-banner">
          {backup.alert}{' '}
          <Anchor component={Link} to="/backups">
            Open Backups
          </Anchor>
        </Alert>
      )}
      {tax?.alert && (
        <Alert color={tax.invoicing_on ? 'red' : 'yellow'} title="Tax invoices (KRA eTIMS)" data-testid="tax-banner">
          {tax.alert}{' '}
          <Anchor component={Link} to="/tax">
            Open Tax
          </Anchor>
        </Alert>
      )}
      {alerts.sms && <SmsGatewayBanners data={alerts.sms} backlog linkToLog />}
      <PrivacyAlerts alerts={alerts.privacy} />
      <AdminGrantAlerts grants={alerts.admin_grants} />
      <ComplianceCalendar calendar={alerts.compliance} />
      <SmsProviderAlerts states={alerts.sms_providers} />
      <TaxTransmissionAlerts data={alerts.tax_transmissions} />
    </>
  );
}
