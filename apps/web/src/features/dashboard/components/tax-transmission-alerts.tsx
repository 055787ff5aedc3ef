import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { useTaxStatus } from '../api/get-tax-status.ts';

/**
 * The admin dashboard's alert on KRA transmissions (decision 068): a document KRA rejected, or one
 * not accepted within the setting tax_transmission_alert_hours. The same read as the tax banner.
 */
export function TaxTransmissionAlerts({ enabled }: { enabled: boolean }) {
  const alert = useTaxStatus(enabled).data?.transmission_alert;
  if (!alert) return null;
  return (
    <Alert color="red" title="KRA has not accepted some tax invoices" data-testid="tax-transmission-alert">
      <Text size="sm">{alert}.</Text>
      <Anchor component={Link} to={paths.tax} size="sm">
        Open the Tax screen
      </Anchor>
    </Alert>
  );
}
