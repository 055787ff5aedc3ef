/**
 * Where the claim dialog's questions about one payment (who it might be, what it would buy) are
 * cached. Deliberately outside ['mpesa-transactions']: a claim refreshes the payment lists, and if
 * the same refresh re-asked these questions the server would answer 409 "already claimed" right
 * after the green "claimed" (issue 27, item 11). The dialog closes on success and they go with it.
 */
export function claimQuestionsKey(transactionId: number | null) {
  return ['mpesa-claim-questions', transactionId] as const;
}
