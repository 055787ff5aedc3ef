/**
 * What an erased person's phone is told when it tries to sign in or use the menu again (issue 27).
 * English and Kiswahili, `{placeholder}` style, to be folded into the customer-texts catalogue
 * (apps/api/src/customer-texts/) when it lands; until then the English is what is sent.
 */
export const erasedPhoneTexts = {
  portalRefused: {
    en: "This number's data was erased at its owner's request: it can no longer sign in here.",
    sw: 'Data ya nambari hii ilifutwa kwa ombi la mwenyewe: haiwezi tena kuingia hapa.',
  },
  ussdRefused: {
    en: "END This number's data was erased at its owner's request: it can no longer use this service.",
    sw: 'END Data ya nambari hii ilifutwa kwa ombi la mwenyewe: haiwezi tena kutumia huduma hii.',
  },
} as const;
