import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import type { AdminAlerts } from '@betdesk/contract';

/**
 * The admin dashboard's alert on KRA transmissions (decision 068): a document KRA rejected, or one
 * not accepted within the setting tax_transmission_alert_hours.
 */
export function TaxTransmissionAlerts({ data }: { data: AdminAlerts['tax_transmissions'] }) {
  if (!data || (data.rejected === 0 && data.older_than_alert === 0)) return null;
  return (
    <Alert color="red" title="KRA has not accepted some tax invoices" data-testid="tax-transmission-alert">
      <Text size="sm">
        {data.rejected > 0 ? `${data.rejected} rejected by KRA. ` : ''}
        {data.older_than_alert > 0 ? `${data.older_than_alert} not accepted after ${data.alert_hours} h.` : ''}
      </Text>
      <Anchor component={Link} to={paths.tax} size="sm">
        Open the Tax screen
      </Anchor>
    </Alert>
  );
}
