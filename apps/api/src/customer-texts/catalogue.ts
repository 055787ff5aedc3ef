/**
 * Every text a customer reads (SMS, USSD screens), in English and Kiswahili, one id per message, in
 * ICU MessageFormat (`{name}` placeholders, `{days, plural, one {# day} other {# days}}`). Texts the
 * business may reword are settings (`editable`): the id is the English setting's key and `<id>_sw`
 * the Kiswahili one; the catalogue holds their defaults. The Kiswahili is plain, everyday Kenyan
 * Kiswahili in M-Pesa's words (docs/GLOSSARY.md), not a word-by-word translation.
 *
 * Rules the tests hold (test/customer-texts): both languages carry the same placeholders, every text
 * is GSM-7 (one curly apostrophe would double the cost of every part), and every USSD screen fits
 * 182 characters in both languages. An apostrophe before `{` would quote the placeholder in ICU:
 * write "Today's" freely, never `'{`.
 */
import type { CatalogueText } from './catalogue-text.ts';
import { portalTexts } from './portal.ts';

export const LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sw: 'Kiswahili' };

export type { CatalogueText } from './catalogue-text.ts';

const sms = (en: string, sw: string): CatalogueText => ({ en, sw, channel: 'sms' });
const editable = (en: string, sw: string, purpose: string) => ({ en, sw, channel: 'sms' as const, editable: purpose });
const ussd = (en: string, sw: string): CatalogueText => ({ en, sw, channel: 'ussd' });

/** SMS the business may reword (Settings, one per language). */
export const editableTexts = {
  tips_receipt_sms: editable(
    'Thank you {name}. KES {amount} received ({receipt}). Your {package} tips run until {expiry}.',
    'Asante {name}. Tumepokea KES {amount} ({receipt}). Tips zako za {package} zinaendelea hadi {expiry}.',
    'SMS to a payer whose payment started a tips package; {name}, {amount}, {receipt}, {package} and {expiry} are filled in',
  ),
  tips_credit_sms: editable(
    'KES {amount} received ({receipt}) and kept as credit on your account. {prices}',
    'Tumepokea KES {amount} ({receipt}) na tumeziweka kama salio kwenye akaunti yako. {prices}',
    'SMS to a payer whose payment matched no package price; {amount}, {receipt} and {prices} are filled in',
  ),
  tips_prices_sms: editable(
    '{category} tips: {packages}. Pay by M-Pesa with account number {code}.',
    'Tips za {category}: {packages}. Lipa kwa M-Pesa, nambari ya akaunti {code}.',
    "A category's prices and how to pay (keyword reply, credit SMS); {category}, {packages} and {code} are filled in",
  ),
  subscription_reminder_sms: editable(
    'Hi {name}, your {package} subscription expires on {expiry}. Renew by M-Pesa to keep receiving it.',
    'Habari {name}, usajili wako wa {package} unaisha {expiry}. Lipia tena kwa M-Pesa uendelee kupokea.',
    'SMS sent the day before a subscription expires; {name}, {package} and {expiry} are filled in',
  ),
  sms_help_reply: editable(
    'Betdesk tips: send a category code (e.g. D2) for prices, STOP to stop messages, START to receive them again.',
    'Betdesk tips: tuma msimbo wa aina ya tips (mfano D2) upate bei, STOP kusitisha ujumbe, START kuupokea tena.',
    'Reply to HELP or any text the system does not understand',
  ),
  sms_stop_reply: editable(
    'You will receive no more tips or offers from us. Send START to receive them again.',
    'Hutapokea tena tips wala ofa kutoka kwetu. Tuma START kuzipokea tena.',
    'Reply to STOP',
  ),
  sms_stop_category_reply: editable(
    'You will receive no more {category} tips. Send START to receive them again.',
    'Hutapokea tena tips za {category}. Tuma START kuzipokea tena.',
    'Reply to STOP <code>; {category} is filled in',
  ),
  sms_start_reply: editable(
    'Welcome back: you will receive the tips you pay for again. Send YES to also get our offers, STOP to stop messages.',
    'Karibu tena: utapokea tena tips unazolipia. Tuma YES kupata pia ofa zetu, STOP kusitisha ujumbe.',
    'Reply to START',
  ),
  sms_yes_reply: editable(
    'Thank you: you will receive our offers by SMS. Send STOP at any time to stop them.',
    'Asante: utapokea ofa zetu kwa SMS. Tuma STOP wakati wowote kuzisitisha.',
    'Reply to YES (marketing consent given)',
  ),
  sms_language_reply: editable(
    'Done: we will write to you in English. Send SW for Kiswahili.',
    'Sawa: tutakuandikia kwa Kiswahili. Tuma EN for English.',
    'Reply to a language keyword (SW, SWAHILI, KISWAHILI, EN, ENGLISH), in the language chosen',
  ),
  ussd_pay_instructions_sms: editable(
    'To pay for {package}: M-Pesa > Lipa na M-Pesa > Pay Bill, business number {paybill}, account number {code}, amount {amount}.',
    'Kulipia {package}: M-Pesa > Lipa na M-Pesa > Pay Bill, nambari ya biashara {paybill}, nambari ya akaunti {code}, kiasi {amount}.',
    'SMS to a USSD buyer when no STK push can be sent (M-Pesa not configured or refused); {package}, {paybill}, {code} and {amount} are filled in',
  ),
  marketing_consent_wording: editable(
    'Yes, send me offers and news of new tips by SMS. I can stop them at any time by sending STOP.',
    'Ndiyo, nitumie ofa na habari za tips mpya kwa SMS. Naweza kuzisitisha wakati wowote kwa kutuma STOP.',
    'What a person agrees to when they give marketing consent (portal, SMS YES, USSD); stored with each consent',
  ),
  portal_code_sms: editable(
    'Your {business} sign-in code is {code}. It works for 10 minutes. Do not share it.',
    'Nambari yako ya kuingia {business} ni {code}. Inatumika kwa dakika 10. Usimpe mtu yeyote.',
    'The SMS carrying a portal sign-in code; {business} and {code} are filled in',
  ),
} satisfies Record<string, CatalogueText & { editable: string }>;

export const customerTexts = {
  ...editableTexts,
  // Parts of SMS the code assembles.
  'sms.price_line': sms('{medium} {days, plural, one {# day} other {# days}} KES {price}', '{medium} siku {days} KES {price}'),
  'sms.price_line_daily': sms('{medium} KES {price} a day', '{medium} KES {price} kwa siku'),
  'sms.package_name': sms('{category} {medium}, {days} days', '{category} {medium}, siku {days}'),

  // USSD screens and their parts (a screen is at most 182 characters, `CON `/`END ` included).
  'ussd.main': ussd(
    '{welcome}\n1 Buy tips\n2 My subscriptions\n3 Today\'s tips\n4 {optedOut, select, yes {Start SMS} other {Stop SMS}}\n5 Offers by SMS\n6 Lugha / Language\n7 Self-exclusion\n8 Pause',
    '{welcome}\n1 Nunua tips\n2 Usajili wangu\n3 Tips za leo\n4 {optedOut, select, yes {Anzisha SMS} other {Sitisha SMS}}\n5 Ofa kwa SMS\n6 Lugha / Language\n7 Jiepushe\n8 Sitisha usajili',
  ),
  // 8 Pause (decision 090): a weekly or monthly subscription, then the days, then yes.
  'ussd.pause_header': ussd('Pause which subscription?', 'Sitisha usajili upi?'),
  'ussd.pause_days_question': ussd('Pause for how many days? Enter 1 to {max}', 'Sitisha kwa siku ngapi? Andika 1 hadi {max}'),
  'ussd.pause_confirm': ussd(
    'Pause {category} {medium} for {days, plural, one {# day} other {# days}}? No tips until {date}, and it then ends {end}.\n1 Yes, pause',
    'Sitisha {category} {medium} kwa siku {days}? Hakuna tips hadi {date}, kisha unaisha {end}.\n1 Ndiyo, sitisha',
  ),
  'ussd.pause_gone': ussd('This subscription can no longer be paused.', 'Usajili huu hauwezi kusitishwa tena.'),
  'ussd.invalid': ussd('Invalid choice.', 'Chaguo si sahihi.'),
  'ussd.more': ussd('More', 'Zaidi'),
  'ussd.back': ussd('Back', 'Rudi'),
  'ussd.categories_header': ussd('Buy tips: choose', 'Nunua tips: chagua'),
  'ussd.packages_header': ussd('{category}: choose', '{category}: chagua'),
  'ussd.package_label': ussd('{medium} {days} days {price}', '{medium} siku {days} {price}'),
  // A daily package (decision 095): priced per day, the days asked before the confirm screen.
  'ussd.package_label_daily': ussd('{medium} {price} a day', '{medium} {price} kwa siku'),
  'ussd.days_question': ussd(
    '{category} {medium}: {price} a day.\nHow many days? Enter 1 to {max}',
    '{category} {medium}: {price} kwa siku.\nSiku ngapi? Andika 1 hadi {max}',
  ),
  'ussd.subscriptions_header': ussd('My subscriptions:', 'Usajili wangu:'),
  'ussd.subscription_line': ussd('{category} {medium} to {date}', '{category} {medium} hadi {date}'),
  'ussd.subscription_auto_line': ussd('{category} {medium} to {date}, renews automatically', '{category} {medium} hadi {date}, inalipiwa kiotomatiki'),
  'ussd.auto_renew_start': ussd('Renew {category} automatically', 'Lipia {category} kiotomatiki'),
  'ussd.auto_renew_stop': ussd('Stop automatic renewal {category}', 'Sitisha kulipia kiotomatiki {category}'),
  'ussd.auto_renew_started': ussd(
    'Check your phone: approve automatic renewal of KES {amount} {frequency, select, daily {every day} weekly {every week} other {every month}} until {end} with your M-Pesa PIN.',
    'Angalia simu yako: kubali kulipia kiotomatiki KES {amount} {frequency, select, daily {kila siku} weekly {kila wiki} other {kila mwezi}} hadi {end} kwa PIN yako ya M-Pesa.',
  ),
  'ussd.auto_renew_stopped': ussd(
    'Automatic renewal is stopped. Also cancel it in the M-Pesa app or *334# (M-Pesa Ratiba).',
    'Kulipia kiotomatiki kumesitishwa. Pia ughairi kwenye programu ya M-Pesa au *334# (M-Pesa Ratiba).',
  ),
  'ussd.subscriptions_none': ussd('My subscriptions: none.\nChoose 1 Buy tips to subscribe.', 'Usajili wangu: hakuna.\nChagua 1 Nunua tips ujiandikishe.'),
  'ussd.none_on_sale': ussd('No tips are on sale right now. Please try again later.', 'Hakuna tips zinazouzwa sasa. Tafadhali jaribu tena baadaye.'),
  'ussd.category_none_on_sale': ussd('Nothing of this category is on sale right now.', 'Hakuna kinachouzwa kwa aina hii sasa.'),
  'ussd.package_gone': ussd('This package is no longer on sale.', 'Kifurushi hiki hakiuzwi tena.'),
  'ussd.confirm': ussd(
    '{category} {medium}, {days} days: {price}.\nPay by M-Pesa from {phone}?\n1 Pay',
    '{category} {medium}, siku {days}: {price}.\nLipa kwa M-Pesa kutoka {phone}?\n1 Lipa',
  ),
  // A promo code before the STK push (decision 077): offered on the confirm screen, asked, then confirmed at its price.
  'ussd.promo_choice': ussd('2 Promo code', '2 Msimbo wa punguzo'),
  'ussd.promo_question': ussd('Promo code? Enter it, or 0 to skip', 'Msimbo wa punguzo? Uandike, au 0 kuruka'),
  'ussd.confirm_promo': ussd(
    '{category} {medium}, {days} days: {price} with promo code.\nPay by M-Pesa from {phone}?\n1 Pay',
    '{category} {medium}, siku {days}: {price} (punguzo).\nLipa kwa M-Pesa kutoka {phone}?\n1 Lipa',
  ),
  'ussd.age_question': ussd(
    'Betting tips are for adults only. Are you 18 years old or older?\n1 Yes, I am 18 or older',
    'Tips za kubeti ni za watu wazima pekee. Una umri wa miaka 18 au zaidi?\n1 Ndiyo, nina miaka 18 au zaidi',
  ),
  'ussd.sms_start_question': ussd('Receive our tips and offers by SMS again?\n1 Yes, start SMS', 'Upokee tena tips na ofa zetu kwa SMS?\n1 Ndiyo, anzisha SMS'),
  'ussd.sms_stop_question': ussd(
    'Stop all tips and offers by SMS? Payment receipts still come.\n1 Yes, stop SMS',
    'Usitishe tips na ofa zote kwa SMS? Risiti za malipo zitaendelea kuja.\n1 Ndiyo, sitisha SMS',
  ),
  'ussd.offers_stop_question': ussd('You receive our offers by SMS. Stop them?', 'Unapokea ofa zetu kwa SMS. Uzisitishe?'),
  'ussd.offers_stop_choice': ussd('1 Yes, stop offers', '1 Ndiyo, sitisha ofa'),
  'ussd.agree': ussd('1 I agree', '1 Nakubali'),
  'ussd.sms_started': ussd('Done: you will receive our tips and offers by SMS again.', 'Sawa: utapokea tena tips na ofa zetu kwa SMS.'),
  'ussd.sms_stopped': ussd(
    'Done: no more tips or offers by SMS. Payment receipts still come. Dial again to start SMS.',
    'Sawa: hakuna tena tips wala ofa kwa SMS. Risiti za malipo zitaendelea kuja. Piga tena kuanzisha SMS.',
  ),
  'ussd.offers_given': ussd(
    'Thank you: you will receive our offers by SMS. Dial again or send STOP to stop them.',
    'Asante: utapokea ofa zetu kwa SMS. Piga tena au tuma STOP kuzisitisha.',
  ),
  'ussd.offers_stopped': ussd('Done: no more offers by SMS. Tips you pay for still come.', 'Sawa: hakuna tena ofa kwa SMS. Tips unazolipia zitaendelea kuja.'),
  'ussd.enter_pin': ussd('Enter your M-Pesa PIN when asked to pay {price} for {category} {medium}.', 'Weka PIN yako ya M-Pesa ukiombwa kulipa {price} kwa {category} {medium}.'),
  'ussd.pay_sms_coming': ussd('We are sending you an SMS with how to pay {price} by M-Pesa.', 'Tunakutumia SMS ya jinsi ya kulipa {price} kwa M-Pesa.'),
  'ussd.no_running_tips': ussd('You have no running SMS tips. Choose 1 Buy tips to subscribe.', 'Huna tips za SMS zinazoendelea. Chagua 1 Nunua tips ujiandikishe.'),
  'ussd.tips_on_their_way': ussd("Today's {categories} tips are on their way by SMS.", 'Tips za leo za {categories} zinakuja kwa SMS.'),
  'ussd.tips_already_sent': ussd('{categories}: already sent again today.', '{categories}: zimeshatumwa tena leo.'),
  'ussd.tips_not_yet': ussd('{categories}: no tips yet today; they come by SMS when ready.', '{categories}: bado hakuna tips leo; zitakuja kwa SMS zikiwa tayari.'),
  'ussd.kenyan_only': ussd('This service is for Kenyan mobile numbers only.', 'Huduma hii ni ya nambari za simu za Kenya pekee.'),
  'ussd.language_question': ussd('Lugha / Language\n1 English\n2 Kiswahili', 'Lugha / Language\n1 English\n2 Kiswahili'),
  'ussd.language_set': ussd('Done: we will write to you in English.', 'Sawa: tutakuandikia kwa Kiswahili.'),
  'ussd.erased_refused': ussd(
    "This number's data was erased at its owner's request: it can no longer use this service.",
    'Data ya nambari hii ilifutwa kwa ombi la mwenye nambari: haiwezi tena kutumia huduma hii.',
  ),

  // The lines every promotional SMS ends with while `rg_promotion_rules` is on (Gambling Control Act
  // 2025: an advert states that gambling is addictive, tells people to play responsibly and bars
  // under-18s; decision 061).
  'sms.responsible_gambling': sms('18+. Gambling is addictive. Play responsibly.', '18+. Kamari ni uraibu. Cheza kwa uwajibikaji.'),
  // SMS of a failed payment request's one reminder (decision 037).
  'sms.recovery_reminder': sms(
    'Your M-Pesa payment of KES {amount} for {package} did not go through. Pay again from {link} (sign in with the code we text you) or by paybill {paybill}, account {account}.',
    'Malipo yako ya M-Pesa ya KES {amount} kwa {package} hayakukamilika. Lipa tena kupitia {link} (ingia kwa nambari tutakayokutumia) au paybill {paybill}, akaunti {account}.',
  ),
  // Automatic renewal by M-Pesa Ratiba (decision 042).
  'sms.auto_renew_on': sms(
    'Automatic renewal is on: {package}, KES {amount} {frequency, select, daily {every day} weekly {every week} other {every month}} until {end} by M-Pesa Ratiba, next on {date}. To stop it, use My account on {link} and also cancel it in the M-Pesa app or *334#.',
    'Kulipia kiotomatiki kumewashwa: {package}, KES {amount} {frequency, select, daily {kila siku} weekly {kila wiki} other {kila mwezi}} hadi {end} kwa M-Pesa Ratiba, malipo yajayo {date}. Kusitisha, tumia Akaunti yangu kwenye {link} na pia ughairi kwenye programu ya M-Pesa au *334#.',
  ),
  // A standing order the subscriber (or M-Pesa) declined: nothing is taken, and it can be turned on again.
  'sms.auto_renew_declined': sms(
    'Your automatic renewal of {package} was declined in M-Pesa: no money will be taken automatically. To turn it on again, use My account on {link}.',
    'Ombi lako la kulipia {package} kiotomatiki limekataliwa kwenye M-Pesa: hakuna pesa itakayokatwa kiotomatiki. Kuwasha tena, tumia Akaunti yangu kwenye {link}.',
  ),
  'sms.auto_renew_stopped': sms(
    'Automatic renewal of {package} is stopped. M-Pesa may still hold the standing order: cancel it in the M-Pesa app or *334# (M-Pesa Ratiba) so no more money is taken.',
    'Kulipia kiotomatiki kwa {package} kumesitishwa. M-Pesa huenda bado ina agizo hilo: lighairi kwenye programu ya M-Pesa au *334# (M-Pesa Ratiba) ili pesa zisikatwe tena.',
  ),
  'sms.pause_confirmed': sms(
    'Your {package} tips are paused for {days} days, until {date}. Your subscription now ends {end}.',
    'Tips zako za {package} zimesitishwa kwa siku {days}, hadi {date}. Usajili wako sasa unaisha {end}.',
  ),
  'sms.pause_confirmed_auto_renew': sms(
    'Your {package} tips are paused for {days} days, until {date}. Your subscription now ends {end} and its automatic renewal is due {due}: also pause it in the M-Pesa app or *334# (M-Pesa Ratiba).',
    'Tips zako za {package} zimesitishwa kwa siku {days}, hadi {date}. Usajili wako sasa unaisha {end} na kulipia kiotomatiki ni {due}: pia lisitishe kwenye programu ya M-Pesa au *334# (M-Pesa Ratiba).',
  ),
  'pause.done': sms(
    'Paused for {days} days: no tips until {date}. Your subscription now ends {end}. We sent you an SMS.',
    'Imesitishwa kwa siku {days}: hakuna tips hadi {date}. Usajili wako sasa unaisha {end}. Tumekutumia SMS.',
  ),
  'pause.refused.off': sms('Pausing a subscription is not offered right now.', 'Kusitisha usajili hakupatikani kwa sasa.'),
  'pause.refused.not_found': sms('We found no running subscription of yours to pause.', 'Hatukupata usajili wako unaoendelea wa kusitisha.'),
  'pause.refused.daily': sms('Only a weekly or monthly subscription can be paused.', 'Usajili wa wiki au mwezi pekee ndio unaweza kusitishwa.'),
  'pause.refused.days': sms('You can pause for 1 to {max} days.', 'Unaweza kusitisha kwa siku 1 hadi {max}.'),
  'pause.refused.once': sms(
    'This subscription was paused once already. You can pause again after you renew.',
    'Usajili huu umeshasitishwa mara moja. Unaweza kusitisha tena baada ya kulipia upya.',
  ),
  'pause.refused.excluded': sms('This is not available while you are excluded from gambling.', 'Hii haipatikani ukiwa umejiondoa kwenye kamari.'),
  'sms.auto_renew_missed': sms(
    'Your automatic renewal of {package} (KES {amount}) did not come on {date}, maybe too little M-Pesa balance. Pay by hand: paybill {paybill}, account {account}, or on {link}.',
    'Malipo ya kiotomatiki ya {package} (KES {amount}) hayakufika {date}, huenda salio la M-Pesa halikutosha. Lipa mwenyewe: paybill {paybill}, akaunti {account}, au kwenye {link}.',
  ),
  // The receipt's short invoice line, with the `receipt_sms_invoice_line` setting on (decision 035).
  'sms.receipt_invoice_line': sms('Invoice {number}.', 'Ankara {number}.'),
  // A link to an invoice or credit note as a PDF, sent by staff (decision 087); a secret text once sent.
  'sms.invoice_link': sms(
    'Your tax invoice {number} from {business}: {link} (the link works for {days} days).',
    'Ankara yako ya kodi {number} kutoka {business}: {link} (kiungo kinafanya kazi kwa siku {days}).',
  ),
  // SMS of money going back (decision 036).
  // An agent's monthly payout, sent once when M-Pesa says it was paid (decision 093).
  'sms.agent_payout_paid': sms(
    'Commission for {month}: KES {amount} sent to your M-Pesa (receipt {receipt}). Commissions KES {commissions}, carried KES {carried}. {business}',
    'Kamisheni ya {month}: KES {amount} zimetumwa kwenye M-Pesa yako (risiti {receipt}). Kamisheni KES {commissions}, salio la awali KES {carried}. {business}',
  ),
  'sms.refund_sent': sms(
    'Refund: KES {amount} of your payment {receipt} has been returned to your M-Pesa (M-Pesa receipt {refundReceipt}). {business}',
    'Marejesho: KES {amount} za malipo yako {receipt} zimerudishwa kwenye M-Pesa yako (risiti ya M-Pesa {refundReceipt}). {business}',
  ),

  // Self-exclusion and the under-18 mark (decision 059). Keywords: EXCLUDE or JIEPUSHE, then 30, 90,
  // 180 or FOREVER (Kiswahili: MILELE, or DAIMA).
  'sms.exclusion_started': sms(
    'You are excluded from Betdesk {period, select, forever {for good} other {until {end}}}: no tips sales, offers or reminders. What you already paid for still arrives. It cannot be ended early.',
    'Umejiepusha na Betdesk {period, select, forever {milele} other {hadi {end}}}: hakuna mauzo ya tips, ofa wala vikumbusho. Ulicholipia bado kitafika. Haiwezi kusitishwa mapema.',
  ),
  'sms.exclusion_ended': sms(
    'Your self-exclusion from Betdesk ended. Nothing restarts by itself: offers and automatic renewal stay off until you turn them on.',
    'Muda wako wa kujiepusha na Betdesk umekwisha. Hakuna kinachoanza chenyewe: ofa na kulipia kiotomatiki vimezimwa hadi uviwashe.',
  ),
  'sms.exclusion_how': sms(
    'To exclude yourself from Betdesk text EXCLUDE 30, EXCLUDE 90, EXCLUDE 180 or EXCLUDE FOREVER (days). It cannot be ended early.',
    'Kujiepusha na Betdesk tuma JIEPUSHE 30, JIEPUSHE 90, JIEPUSHE 180 au JIEPUSHE MILELE (siku). Haiwezi kusitishwa mapema.',
  ),
  'sms.sale_refused': sms(
    'We received KES {amount} ({receipt}) but {reason, select, under_18 {cannot sell to a person under 18} other {cannot sell to you while you are excluded}}. The money is kept and will be refunded to your M-Pesa.',
    'Tumepokea KES {amount} ({receipt}) lakini {reason, select, under_18 {hatuwezi kumuuzia mtu aliye chini ya miaka 18} other {hatuwezi kukuuzia ukiwa umejiepusha}}. Tumeziweka na zitarudishwa kwenye M-Pesa yako.',
  ),
  // The paybill's 18+ declaration (decision 066): a payment from a phone that never declared waits
  // for a reply of 18 within age_declaration_grace_hours.
  'sms.age_reply_asked': sms(
    'We received KES {amount} ({receipt}). Before your tips start, confirm you are 18 or older: reply 18 to this number within {hours} hours. With no reply the money is refunded to your M-Pesa.',
    'Tumepokea KES {amount} ({receipt}). Kabla tips zako hazijaanza, thibitisha kuwa una miaka 18 au zaidi: jibu 18 kwa nambari hii ndani ya saa {hours}. Usipojibu pesa zitarudishwa kwenye M-Pesa yako.',
  ),
  'sms.age_declared': sms(
    'Thank you: you confirmed you are 18 or older.',
    'Asante: umethibitisha kuwa una miaka 18 au zaidi.',
  ),
  'sms.age_reply_late': sms(
    'Thank you: you confirmed you are 18 or older. Your payment {receipt} waited more than {hours} hours, so it will be refunded to your M-Pesa. Pay again to buy.',
    'Asante: umethibitisha kuwa una miaka 18 au zaidi. Malipo yako {receipt} yalisubiri zaidi ya saa {hours}, kwa hiyo yatarudishwa kwenye M-Pesa yako. Lipa tena kununua.',
  ),
  'ussd.exclusion_menu': ussd(
    'Self-exclusion: no sales, offers or reminders. It cannot be ended early.\n1 30 days\n2 90 days\n3 180 days\n4 For good',
    'Kujiepusha: hakuna mauzo, ofa wala vikumbusho. Haiwezi kusitishwa mapema.\n1 Siku 30\n2 Siku 90\n3 Siku 180\n4 Milele',
  ),
  'ussd.exclusion_done': ussd(
    'You are excluded {period, select, forever {for good} other {until {end}}}. We sent you an SMS.',
    'Umejiepusha {period, select, forever {milele} other {hadi {end}}}. Tumekutumia SMS.',
  ),
  'ussd.sale_refused': ussd(
    'Nothing can be sold to this number (self-exclusion or age).',
    'Hakuna kinachoweza kuuzwa kwa nambari hii (kujiepusha au umri).',
  ),
  'portal.exclusion_done': {
    en: 'You are excluded {period, select, forever {for good} other {until {end}}}. We sent you an SMS. It cannot be ended early.',
    sw: 'Umejiepusha {period, select, forever {milele} other {hadi {end}}}. Tumekutumia SMS. Haiwezi kusitishwa mapema.',
    channel: 'portal',
  },
  'portal.sale_refused': {
    en: 'Nothing can be sold to this number: it is self-excluded or marked as under 18.',
    sw: 'Hakuna kinachoweza kuuzwa kwa nambari hii: imejiepusha au imewekwa kuwa chini ya miaka 18.',
    channel: 'portal',
  },

  // A promo code that cannot be used, said why (decision 077): the portal, USSD and the paybill's SMS.
  'promo.unknown': { en: 'There is no promo code {code}. Check it and try again.', sw: 'Hakuna msimbo wa punguzo {code}. Uangalie ujaribu tena.', channel: 'portal' },
  'promo.not_started': { en: 'Promo code {code} starts on {date}.', sw: 'Msimbo wa punguzo {code} unaanza {date}.', channel: 'portal' },
  'promo.ended': { en: 'Promo code {code} has expired.', sw: 'Msimbo wa punguzo {code} umekwisha muda.', channel: 'portal' },
  'promo.spent': { en: 'Promo code {code} has been used up.', sw: 'Msimbo wa punguzo {code} umeshatumika wote.', channel: 'portal' },
  'promo.used_by_phone': { en: 'This number has already used promo code {code}.', sw: 'Nambari hii imeshatumia msimbo wa punguzo {code}.', channel: 'portal' },
  'promo.first_purchase_only': { en: 'Promo code {code} is for a first purchase only.', sw: 'Msimbo wa punguzo {code} ni wa ununuzi wa kwanza pekee.', channel: 'portal' },
  // A referral code used by its owner, or by a phone that paid from the owner's M-Pesa name (decision 088).
  'referral.self': {
    en: 'Referral code {code} cannot be used from this number: it is the number or the M-Pesa name of its owner.',
    sw: 'Msimbo wa rufaa {code} hauwezi kutumika kwa nambari hii: ni nambari au jina la M-Pesa la mwenye msimbo.',
    channel: 'portal',
  },
  // A referrer's free days, after the hold (decision 088).
  'referral.rewarded': {
    en: 'Thank you: someone you referred bought tips with your referral code. You get {days} free days.',
    sw: 'Asante: mtu uliyemwalika amenunua tips kwa msimbo wako wa rufaa. Umepata siku {days} za bure.',
    channel: 'sms',
  },
  'promo.not_for_package': { en: 'Promo code {code} is not for this package.', sw: 'Msimbo wa punguzo {code} si wa kifurushi hiki.', channel: 'portal' },

  // Portal notices.
  // A sale's KRA tax invoice on the purchase page and My subscriptions (decision 035).
  'portal.invoice_sent': {
    en: 'KRA tax invoice {number}, KRA receipt {kraReceipt}. Scan the QR code or open the link to check it with KRA.',
    sw: 'Ankara ya kodi ya KRA {number}, risiti ya KRA {kraReceipt}. Skani msimbo wa QR au fungua kiungo uithibitishe kwa KRA.',
    channel: 'portal',
  },
  'portal.invoice_pending': {
    en: 'Tax invoice {number}. Its KRA code shows here once KRA has received it.',
    sw: 'Ankara ya kodi {number}. Msimbo wake wa KRA utaonekana hapa KRA ikishaipokea.',
    channel: 'portal',
  },
  // A link to an invoice sent by SMS (decision 087) that opens nothing.
  'portal.notice.invoice_link_invalid': {
    en: 'This invoice link is not valid. Check that the whole link was opened.',
    sw: 'Kiungo hiki cha ankara si sahihi. Hakikisha kiungo chote kimefunguliwa.',
    channel: 'portal',
  },
  'portal.notice.invoice_link_expired': {
    en: 'This invoice link has expired. Sign in to My account to download your invoices, or ask us for a new link.',
    sw: 'Muda wa kiungo hiki cha ankara umekwisha. Ingia kwenye Akaunti yangu upakue ankara zako, au tuombe kiungo kipya.',
    channel: 'portal',
  },
  'portal.invoice_link_page.title': { en: 'Tax invoice {number}', sw: 'Ankara ya kodi {number}', channel: 'portal' },
  'portal.invoice_link_page.text': {
    en: 'Your tax invoice from {business}, as a PDF: the receipt fits on a phone screen, the A4 page prints on paper.',
    sw: 'Ankara yako ya kodi kutoka {business}, kama PDF: risiti inatosha kwenye skrini ya simu, ukurasa wa A4 unachapishwa kwenye karatasi.',
    channel: 'portal',
  },
  'portal.invoice_link_page.receipt': { en: 'Download the receipt (PDF)', sw: 'Pakua risiti (PDF)', channel: 'portal' },
  'portal.invoice_link_page.a4': { en: 'Download the A4 invoice (PDF)', sw: 'Pakua ankara ya A4 (PDF)', channel: 'portal' },
  'portal.invoice_link': { en: 'Check this invoice with KRA', sw: 'Thibitisha ankara hii kwa KRA', channel: 'portal' },
  // A buyer's KRA PIN on My account, and the printable invoice (decision 074).
  'portal.invoice_document': { en: 'Download the invoice (PDF)', sw: 'Pakua ankara (PDF)', channel: 'portal' },
  'portal.tax_identity.title': { en: 'KRA PIN for your tax invoices', sw: 'PIN ya KRA kwa ankara zako za kodi', channel: 'portal' },
  'portal.tax_identity.text': {
    en: 'A business or a VAT-registered buyer can have its KRA PIN printed on its tax invoices. New invoices carry it; ask us to reissue an earlier one.',
    sw: 'Biashara au mnunuzi aliyesajiliwa kwa VAT anaweza kuwekewa PIN yake ya KRA kwenye ankara zake za kodi. Ankara mpya zitaibeba; tuombe tutoe upya ankara ya awali.',
    channel: 'portal',
  },
  'portal.tax_identity.pin': { en: 'KRA PIN (e.g. P051234567X)', sw: 'PIN ya KRA (mfano P051234567X)', channel: 'portal' },
  'portal.tax_identity.name': { en: 'Name registered with KRA', sw: 'Jina lililosajiliwa KRA', channel: 'portal' },
  'portal.tax_identity.save': { en: 'Save PIN', sw: 'Hifadhi PIN', channel: 'portal' },
  'portal.tax_identity.current': { en: 'Your invoices carry PIN {pin} ({name}).', sw: 'Ankara zako zinabeba PIN {pin} ({name}).', channel: 'portal' },
  'portal.tax_identity.saved': { en: 'Your KRA PIN is saved.', sw: 'PIN yako ya KRA imehifadhiwa.', channel: 'portal' },
  'portal.tax_identity.invalid': {
    en: 'That is not a KRA PIN: A or P, nine digits and a letter, with the name registered with KRA.',
    sw: 'Hiyo si PIN ya KRA: A au P, tarakimu tisa na herufi, pamoja na jina lililosajiliwa KRA.',
    channel: 'portal',
  },
  'portal.tax_identity.subscribe_first': {
    en: 'Buy a package first: the PIN is kept on your subscriber account.',
    sw: 'Nunua kifurushi kwanza: PIN huhifadhiwa kwenye akaunti yako ya msajili.',
    channel: 'portal',
  },
  // The printable tax invoice (PDF), in the buyer's language.
  'invoice.title': { en: 'TAX INVOICE', sw: 'ANKARA YA KODI', channel: 'portal' },
  'invoice.credit_title': { en: 'CREDIT NOTE', sw: 'HATI YA MKOPO', channel: 'portal' },
  'invoice.seller': { en: 'Seller', sw: 'Muuzaji', channel: 'portal' },
  'invoice.buyer': { en: 'Buyer', sw: 'Mnunuzi', channel: 'portal' },
  'invoice.pin': { en: 'KRA PIN', sw: 'PIN ya KRA', channel: 'portal' },
  'invoice.number': { en: 'Invoice number', sw: 'Nambari ya ankara', channel: 'portal' },
  'invoice.original': { en: 'Credits invoice', sw: 'Inarekebisha ankara', channel: 'portal' },
  'invoice.date': { en: 'Date', sw: 'Tarehe', channel: 'portal' },
  'invoice.item': { en: 'Item', sw: 'Bidhaa', channel: 'portal' },
  'invoice.list_price': { en: 'List price (KES)', sw: 'Bei ya kawaida (KES)', channel: 'portal' },
  'invoice.quantity': { en: 'Quantity', sw: 'Idadi', channel: 'portal' },
  'invoice.quantity_line': { en: '{quantity} days x KES {price}', sw: 'Siku {quantity} x KES {price}', channel: 'portal' },
  'invoice.discount': { en: 'Discount (KES)', sw: 'Punguzo (KES)', channel: 'portal' },
  'invoice.amount': { en: 'Amount (KES)', sw: 'Kiasi (KES)', channel: 'portal' },
  'invoice.rate': { en: 'Tax rate {rate}', sw: 'Kiwango cha kodi {rate}', channel: 'portal' },
  'invoice.taxable': { en: 'Taxable value', sw: 'Thamani inayotozwa kodi', channel: 'portal' },
  'invoice.vat': { en: 'VAT', sw: 'VAT', channel: 'portal' },
  'invoice.total': { en: 'Total', sw: 'Jumla', channel: 'portal' },
  'invoice.kra_receipt': { en: 'KRA receipt number', sw: 'Nambari ya risiti ya KRA', channel: 'portal' },
  'invoice.cu_number': { en: 'Control unit invoice number', sw: 'Nambari ya ankara ya kitengo cha udhibiti', channel: 'portal' },
  'invoice.signature': { en: 'Receipt signature', sw: 'Sahihi ya risiti', channel: 'portal' },
  'invoice.internal_data': { en: 'Internal data', sw: 'Data ya ndani', channel: 'portal' },
  'invoice.scan': { en: 'Scan to check this invoice with KRA', sw: 'Skani uthibitishe ankara hii kwa KRA', channel: 'portal' },
  'invoice.not_yet_sent': {
    en: 'Not yet received by KRA: its KRA receipt and code follow once KRA has it.',
    sw: 'Bado haijapokelewa na KRA: risiti na msimbo wa KRA vitafuata KRA ikishaipokea.',
    channel: 'portal',
  },
  'invoice.phone': { en: 'Phone', sw: 'Simu', channel: 'portal' },
  'portal.language_set': { en: 'Done: we will write to you in English.', sw: 'Sawa: tutakuandikia kwa Kiswahili.', channel: 'portal' },
  'portal.erased_refused': {
    en: "This number's data was erased at its owner's request: it can no longer sign in here.",
    sw: 'Data ya nambari hii ilifutwa kwa ombi la mwenye nambari: haiwezi tena kuingia hapa.',
    channel: 'portal',
  },

  // The portal's pages (portal.ts).
  ...portalTexts,
} satisfies Record<string, CatalogueText>;

export type CustomerTextId = keyof typeof customerTexts;

/** The ids the business may reword: each is the English setting's key; `<id>_sw` is the Kiswahili one. */
export type EditableTextId = keyof typeof editableTexts;
export const isEditableText = (id: string): id is EditableTextId => Object.hasOwn(editableTexts, id);

export const isLanguage = (value: unknown): value is Language => value === 'en' || value === 'sw';
