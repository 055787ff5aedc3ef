/**
 * Customer-facing texts of payment recovery, English and Kiswahili, ICU-style `{placeholder}`s,
 * kept here until the customer-texts catalogue (apps/api/src/customer-texts/) takes them in.
 */
export const recoveryTexts = {
  reminder: {
    en: 'Your M-Pesa payment of KES {amount} for {package} did not go through. Pay again from {link} (sign in with the code we text you) or by paybill {paybill}, account {account}.',
    sw: 'Malipo yako ya M-Pesa ya KES {amount} kwa {package} hayakukamilika. Lipa tena kupitia {link} (ingia kwa nambari tutakayokutumia) au paybill {paybill}, akaunti {account}.',
  },
} as const;

/** Fills `{name}` placeholders; a missing value leaves the placeholder visible rather than blank. */
export function fillText(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => values[key] ?? whole);
}
