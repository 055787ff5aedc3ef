/** An SMS provider's name as staff read it (decision 062). */
export const providerLabel = (provider: string): string =>
  ({ africastalking: "Africa's Talking", advanta: 'Advanta', log: 'Log (no SMS leave)' })[provider] ?? provider;
