import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsBacklog, smsGatewayRefusalTexts } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';
import { SmsGatewayBanners } from './sms-gateway-banners.tsx';

/** GET /api/sms/backlog (admins): what waits or failed at the SMS gateway. */
export function useSmsBacklog(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.sms.backlog(),
      queryFn: () => callEndpoint(smsBacklog, {}, { failure: 'log' }),
      enabled,
      refetchInterval: 60_000,
    }),
  );
}

/** The SMS gateway's banners (sms-gateway-banners.tsx) from the backlog query, the refusal's cause put in words. */
export function SmsGatewayAlert({
  enabled,
  backlog = false,
  linkToLog = false,
}: {
  enabled: boolean;
  backlog?: boolean;
  linkToLog?: boolean;
}) {
  const data = useSmsBacklog(enabled).data;
  if (!data) return null;
  const refusal = data.refusal && { text: smsGatewayRefusalTexts[data.refusal.cause], reason: data.refusal.reason, at: data.refusal.at };
  return <SmsGatewayBanners data={{ ...data, refusal }} backlog={backlog} linkToLog={linkToLog} />;
}
