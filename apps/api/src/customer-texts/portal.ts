import type { CatalogueText } from './catalogue-text.ts';

/*
 * The portal's page texts (decision 040): every word a punter reads on /portal, in English and
 * Kiswahili. Markup, figures and separators (" · ", "−") stay in the pages; only words live here.
 * Like every catalogue text they are GSM-7 (three dots, never the ellipsis character).
 */
const portal = (en: string, sw: string): CatalogueText => ({ en, sw, channel: 'portal' });

/** The texts of the trust pages, the defaults of their settings (one per language). */
export const trustPageDefaults = {
  portal_terms: portal(
    `# Who we are
{business} sells football betting tips by SMS and on this site. We are a tips service: we do not take bets, hold your stakes or pay winnings. You place any bet yourself, with a bookmaker of your choice.

# Who may use the service
You must be 18 or older. Betting is addictive: never bet money you cannot afford to lose.

# What you buy
A package gives you the tips of one category for the days it says, by SMS or on this site. It starts as soon as your M-Pesa payment arrives; paying again adds the days to what you have left. Tips are our opinion, not a promise that a bet will win: our full record, every ticket and how it ended, is on the Record page.

# Paying
You pay by M-Pesa: on a package page, by the USSD menu, or by Lipa na M-Pesa, Pay Bill, with the category's code as the account number. Money that matches no package is kept as credit (salio) on your account.

# Stopping SMS
Reply STOP to any of our messages, or use My account, to stop our SMS. Receipts and sign-in codes still reach you.

# Contact
Call or text {support}.`,
    `# Sisi ni nani
{business} inauza tips za kubeti mpira kwa SMS na kwenye tovuti hii. Sisi ni huduma ya tips: hatupokei beti, hatushikilii pesa zako za kubeti wala hatulipi ushindi. Unaweka beti yoyote mwenyewe, kwa kampuni ya kubeti unayochagua.

# Nani anaweza kutumia huduma
Lazima uwe na miaka 18 au zaidi. Kubeti ni uraibu: usibeti pesa ambazo huwezi kumudu kupoteza.

# Unachonunua
Kifurushi kinakupa tips za aina moja kwa siku zilizoandikwa, kwa SMS au kwenye tovuti hii. Kinaanza mara tu malipo yako ya M-Pesa yanapofika; ukilipa tena, siku zinaongezwa kwa zile ulizobaki nazo. Tips ni maoni yetu, si ahadi kwamba beti itashinda: rekodi yetu kamili, kila tiketi na jinsi ilivyoisha, iko kwenye ukurasa wa Rekodi.

# Kulipa
Unalipa kwa M-Pesa: kwenye ukurasa wa kifurushi, kwa menyu ya USSD, au kwa Lipa na M-Pesa, Pay Bill, ukitumia msimbo wa aina ya tips kama nambari ya akaunti. Pesa isiyolingana na kifurushi chochote inawekwa kama salio kwenye akaunti yako.

# Kusitisha SMS
Jibu STOP kwa ujumbe wetu wowote, au tumia Akaunti yangu, kusitisha SMS zetu. Risiti na nambari za kuingia zitaendelea kukufikia.

# Mawasiliano
Piga simu au tuma SMS kwa {support}.`,
  ),
  portal_refund_policy: portal(
    `# When we refund
- You paid twice for the same thing, or paid more than a package costs: the extra is kept as credit (salio) for your next package, or refunded to your M-Pesa if you ask.
- We could not deliver what you paid for (no tips were sent in your category during your days): we refund the days not delivered.
- A payment that reached us by mistake (wrong account number, wrong business): we refund it to the M-Pesa number that paid, less nothing.

# When we do not refund
Tips are our opinion: a tip that loses is not a reason for a refund. Days already delivered are not refunded.

# How to ask
Call or text {support} with your M-Pesa receipt number. A refund goes back to the M-Pesa number that paid, and you receive an SMS with its M-Pesa receipt when it is sent.`,
    `# Tunaporejesha pesa
- Ulilipa mara mbili kwa kitu kimoja, au ulilipa zaidi ya bei ya kifurushi: ziada inawekwa kama salio kwa kifurushi chako kijacho, au inarudishwa kwenye M-Pesa yako ukiomba.
- Hatukuweza kukupa ulicholipia (hakuna tips zilizotumwa kwa aina yako katika siku zako): tunarudisha pesa za siku ambazo hukupata.
- Malipo yaliyotufikia kwa makosa (nambari ya akaunti au biashara isiyo sahihi): tunayarudisha kwenye nambari ya M-Pesa iliyolipa, bila kukata chochote.

# Tusiporejesha pesa
Tips ni maoni yetu: tip iliyopoteza si sababu ya kurejesha pesa. Siku ambazo tayari ulipata hazirejeshwi.

# Jinsi ya kuomba
Piga simu au tuma SMS kwa {support} ukiwa na nambari ya risiti ya M-Pesa. Pesa inarudishwa kwenye nambari ya M-Pesa iliyolipa, na utapokea SMS yenye risiti yake ya M-Pesa ikitumwa.`,
  ),
  portal_privacy_notice: portal(
    `# Who holds your data
{business} holds your data and is responsible for it under Kenya's Data Protection Act 2019. Contact: {support}.

# What we keep and what for
- Your phone number and name, to send the tips you pay for, your receipts and sign-in codes.
- Your M-Pesa payments (receipt, amount, time), to start your packages and keep the accounts the law asks for.
- Your subscriptions, the SMS we send you and the ones you send us, and when you sign in here, to run the service and answer your questions.
- Your language and your SMS choices (STOP, offers), so that we respect them.

# Offers by SMS: only with your consent
We send offers and news only if you agree: on My account, by sending YES, or by telling our staff. A payment is never consent. Withdraw it at any time: send STOP, untick the box on My account, or tell us.

# Your rights
You may ask to see the data we hold about you, to correct it, or to erase it. Call or text {support} from your phone; we answer within {request_days} days. Erasing removes your name, phone and messages; the amounts and receipts of payments stay, without your name, because the law requires accounts to be kept.

# How long we keep data
The text of an SMS is kept {sms_text_days} days, then emptied. If you have had no subscription, payment, message or sign-in for {retention_years} years, your data is erased automatically.

# Complaints
If you are not satisfied with our answer, you may complain to the Office of the Data Protection Commissioner (ODPC).`,
    `# Nani anashikilia data yako
{business} inashikilia data yako na inawajibika kwayo chini ya Sheria ya Ulinzi wa Data ya Kenya ya 2019. Mawasiliano: {support}.

# Tunachohifadhi na kwa nini
- Nambari yako ya simu na jina lako, kukutumia tips unazolipia, risiti zako na nambari za kuingia.
- Malipo yako ya M-Pesa (risiti, kiasi, saa), kuanzisha vifurushi vyako na kuweka hesabu ambazo sheria inataka.
- Usajili wako, SMS tunazokutumia na unazotutumia, na unapoingia hapa, kuendesha huduma na kujibu maswali yako.
- Lugha yako na machaguo yako ya SMS (STOP, ofa), ili tuyaheshimu.

# Ofa kwa SMS: kwa idhini yako tu
Tunatuma ofa na habari ukikubali tu: kwenye Akaunti yangu, kwa kutuma YES, au kwa kuwaambia wafanyakazi wetu. Malipo si idhini. Ondoa idhini wakati wowote: tuma STOP, ondoa alama kwenye kisanduku katika Akaunti yangu, au utuambie.

# Haki zako
Unaweza kuomba kuona data tunayoshikilia kukuhusu, kuirekebisha, au kuifuta. Piga simu au tuma SMS kwa {support} kutoka simu yako; tunajibu ndani ya siku {request_days}. Kufuta kunaondoa jina lako, simu yako na ujumbe wako; kiasi na risiti za malipo zinabaki, bila jina lako, kwa sababu sheria inataka hesabu zihifadhiwe.

# Tunahifadhi data kwa muda gani
Maandishi ya SMS yanahifadhiwa siku {sms_text_days}, kisha yanafutwa. Ikiwa hujakuwa na usajili, malipo, ujumbe wala kuingia kwa miaka {retention_years}, data yako inafutwa yenyewe.

# Malalamiko
Usiporidhika na jibu letu, unaweza kulalamika kwa Ofisi ya Kamishna wa Ulinzi wa Data (ODPC).`,
  ),
} satisfies Record<string, CatalogueText>;

/** The placeholders a trust page may use; its setting may use any of them, or none. */
export const TRUST_PAGE_VALUES = ['business', 'support', 'request_days', 'retention_years', 'sms_text_days'] as const;

export const portalTexts = {
  ...trustPageDefaults,
  // Every page: the header, the footer and the notices.
  'portal.nav.label': portal('Portal', 'Tovuti'),
  'portal.nav.home': portal('Home', 'Nyumbani'),
  'portal.nav.record': portal('Record', 'Rekodi'),
  'portal.nav.my_tips': portal('My tips', 'Tips zangu'),
  'portal.nav.packages': portal('Packages', 'Vifurushi'),
  'portal.nav.help': portal('Help', 'Msaada'),
  'portal.nav.account': portal('My account', 'Akaunti yangu'),
  'portal.nav.sign_in': portal('Sign in', 'Ingia'),
  'portal.nav.sign_out': portal('Sign out', 'Toka'),
  'portal.language.label': portal('Language', 'Lugha'),
  'portal.language.switch_to': portal('Soma kwa Kiswahili', 'Read in English'),
  'portal.adults_only': portal('Adults only, 18 and over', 'Watu wazima pekee, miaka 18 na zaidi'),
  'portal.responsible_gambling': portal('Betting is addictive. Play responsibly. 18+ only', 'Kubeti ni uraibu. Cheza kwa uwajibikaji. Miaka 18+ pekee'),
  'portal.footer.label': portal('About us', 'Kutuhusu'),
  'portal.footer.help': portal('Help', 'Msaada'),
  'portal.footer.signed_in': portal('Signed in as {phone}', 'Umeingia kama {phone}'),
  'portal.terms.title': portal('Terms', 'Masharti'),
  'portal.refunds.title': portal('Refund policy', 'Sera ya kurejesha pesa'),
  'portal.privacy.title': portal('Privacy notice', 'Taarifa ya faragha'),
  'portal.terms.description': portal('The terms of {business}: what you buy, how to pay, how to stop SMS.', 'Masharti ya {business}: unachonunua, jinsi ya kulipa, jinsi ya kusitisha SMS.'),
  'portal.refunds.description': portal('When {business} refunds a payment and how to ask.', 'Wakati {business} inarejesha malipo na jinsi ya kuomba.'),
  'portal.privacy.description': portal(
    'What data {business} keeps, what for, for how long, and your rights.',
    'Data ambayo {business} inahifadhi, kwa nini, kwa muda gani, na haki zako.',
  ),
  'portal.not_found.title': portal('Not found', 'Haipatikani'),
  'portal.not_found.text': portal('There is no such page. Start again from the home page.', 'Ukurasa huu haupo. Anza tena kutoka ukurasa wa nyumbani.'),
  'portal.error.title': portal('Something went wrong', 'Kuna tatizo'),
  'portal.unavailable.title': portal('Back in a few minutes', 'Tutarudi baada ya dakika chache'),
  'portal.unavailable.text': portal(
    'The service cannot reach its records just now. Please try again in a few minutes.',
    'Huduma haiwezi kufikia kumbukumbu zake kwa sasa. Tafadhali jaribu tena baada ya dakika chache.',
  ),
  'portal.paybill.title': portal('Pay by M-Pesa Pay Bill', 'Lipa kwa M-Pesa Pay Bill'),

  // Notices the service answers (the JSON interface keeps the English of the contract).
  'portal.notice.code_sent': portal(
    'If this number can receive SMS, a 6-digit code is on its way. It works for 10 minutes.',
    'Kama nambari hii inapokea SMS, nambari ya kuingia ya tarakimu 6 inakuja. Inatumika kwa dakika 10.',
  ),
  'portal.notice.wrong_code': portal(
    'This code is wrong or has expired. Check the SMS or ask for a new code.',
    'Nambari hii si sahihi au imepitwa na muda. Angalia SMS au omba nambari mpya.',
  ),
  'portal.notice.tries_spent': portal('Too many wrong codes. Ask for a new code.', 'Umekosea mara nyingi mno. Omba nambari mpya.'),
  'portal.notice.too_many_codes': portal('Too many codes asked for. Wait a while and try again.', 'Umeomba nambari nyingi mno. Subiri kidogo kisha ujaribu tena.'),
  'portal.notice.phone_wrong': portal('Enter a Kenyan mobile number like 0712345678', 'Weka nambari ya simu ya Kenya kama 0712345678'),
  'portal.notice.code_wrong_form': portal('Enter the 6-digit code from the SMS', 'Weka nambari ya tarakimu 6 iliyo kwenye SMS'),
  'portal.notice.package_gone': portal('This package is not on sale.', 'Kifurushi hiki hakiuzwi.'),
  'portal.notice.no_tip': portal('This tip does not exist.', 'Tip hii haipo.'),
  'portal.notice.no_purchase': portal('No such purchase.', 'Malipo haya hayapo.'),
  'portal.notice.sms_stopped': portal('You will receive no more tips or offers by SMS.', 'Hutapokea tena tips wala ofa kwa SMS.'),
  'portal.notice.sms_restarted': portal('You will receive our tips and offers by SMS again.', 'Utapokea tena tips na ofa zetu kwa SMS.'),
  'portal.notice.offers_on': portal('You will receive our offers by SMS. Untick the box to stop them.', 'Utapokea ofa zetu kwa SMS. Ondoa alama kwenye kisanduku kuzisitisha.'),
  'portal.notice.offers_off': portal('You will receive no offers by SMS.', 'Hutapokea ofa kwa SMS.'),

  // How to pay (home and help pages).
  'portal.pay.heading': portal('How to pay', 'Jinsi ya kulipa'),
  'portal.pay.ussd': portal('Dial {code} on any phone to buy tips, see your subscriptions or stop SMS.', 'Piga {code} kwenye simu yoyote kununua tips, kuona usajili wako au kusitisha SMS.'),
  'portal.pay.paybill': portal(
    'M-Pesa: Lipa na M-Pesa, Pay Bill, business number {paybill}. Account number: the code of the tips you want.',
    'M-Pesa: Lipa na M-Pesa, Pay Bill, nambari ya biashara {paybill}. Nambari ya akaunti: msimbo wa tips unazotaka.',
  ),
  'portal.pay.paybill_unknown': portal(
    "M-Pesa: Lipa na M-Pesa, Pay Bill (ask {support} for the business number). Account number: the code of the tips you want.",
    'M-Pesa: Lipa na M-Pesa, Pay Bill (uliza {support} nambari ya biashara). Nambari ya akaunti: msimbo wa tips unazotaka.',
  ),
  'portal.pay.codes': portal('Account numbers', 'Nambari za akaunti'),
  'portal.pay.package': portal(
    'Pay by M-Pesa: Lipa na M-Pesa, Pay Bill {paybill}, account number {code}, amount KES {amount}. Your package starts as soon as the payment arrives.',
    'Lipa kwa M-Pesa: Lipa na M-Pesa, Pay Bill {paybill}, nambari ya akaunti {code}, kiasi KES {amount}. Kifurushi chako kinaanza mara tu malipo yanapofika.',
  ),
  'portal.pay.package_daily': portal(
    'Pay by M-Pesa: Lipa na M-Pesa, Pay Bill {paybill}, account number {code}, KES {amount} for each day (KES {example} buys {days} days). Your package starts as soon as the payment arrives.',
    'Lipa kwa M-Pesa: Lipa na M-Pesa, Pay Bill {paybill}, nambari ya akaunti {code}, KES {amount} kwa kila siku (KES {example} ni siku {days}). Kifurushi chako kinaanza mara tu malipo yanapofika.',
  ),
  'portal.pay.package_daily_unknown': portal(
    'Pay by M-Pesa: Lipa na M-Pesa, the Pay Bill of the business (ask {support}), account number {code}, KES {amount} for each day (KES {example} buys {days} days). Your package starts as soon as the payment arrives.',
    'Lipa kwa M-Pesa: Lipa na M-Pesa, Pay Bill ya biashara (uliza {support}), nambari ya akaunti {code}, KES {amount} kwa kila siku (KES {example} ni siku {days}). Kifurushi chako kinaanza mara tu malipo yanapofika.',
  ),
  'portal.pay.package_unknown': portal(
    "Pay by M-Pesa: Lipa na M-Pesa, the business's Pay Bill (ask {support}), account number {code}, amount KES {amount}. Your package starts as soon as the payment arrives.",
    'Lipa kwa M-Pesa: Lipa na M-Pesa, Pay Bill ya biashara (uliza {support}), nambari ya akaunti {code}, kiasi KES {amount}. Kifurushi chako kinaanza mara tu malipo yanapofika.',
  ),

  // Home.
  // The defaults of the `portal_description` settings (one per language): the home page's line and its description for search engines.
  'portal.home.description': portal(
    'Premium football betting tips by SMS and on the web, paid by M-Pesa.',
    'Tips bora za kubeti mpira kwa SMS na kwenye tovuti, unalipa kwa M-Pesa.',
  ),
  'portal.home.title': portal('Free betting tips today', 'Tips za bure za kubeti leo'),
  'portal.home.free': portal("Today's free tips", 'Tips za bure za leo'),
  'portal.home.free_none': portal('No free tips yet today. Check back later.', 'Bado hakuna tips za bure leo. Rudi baadaye.'),
  'portal.home.winnings': portal('Winnings & Results', 'Ushindi na Matokeo'),
  'portal.home.nothing_yet': portal('Nothing here yet.', 'Bado hakuna kitu hapa.'),
  'portal.home.full_record': portal('Our full track record, tip by tip', 'Rekodi yetu kamili, tip kwa tip'),

  // Posts and packages.
  'portal.post.match_day': portal('Match day {date}', 'Siku ya mechi {date}'),
  'portal.post.description': portal('{title}: {categories} tip for {date}.', '{title}: tip ya {categories} ya {date}.'),
  'portal.teaser.text': portal('This tip is for subscribers.', 'Tip hii ni ya waliojiandikisha.'),
  'portal.teaser.description': portal('{title}: a {categories} tip for subscribers.', '{title}: tip ya {categories} kwa waliojiandikisha.'),
  'portal.subscribe': portal('Subscribe', 'Jiandikishe'),
  'portal.medium.sms': portal('by SMS', 'kwa SMS'),
  'portal.medium.web': portal('on the web', 'kwenye tovuti'),
  'portal.package.length': portal('{days, plural, one {# day} other {# days}}, {medium}', 'Siku {days}, {medium}'),
  'portal.package.pay': portal('Pay with M-Pesa', 'Lipa kwa M-Pesa'),
  // A daily package (decision 095): priced per day, bought for 1 to 30 days at once.
  'portal.package.per_day': portal('KES {price} a day, {medium}', 'KES {price} kwa siku, {medium}'),
  'portal.package.daily_title': portal('{category} tips by the day, {medium}', 'Tips za {category} kwa siku, {medium}'),
  'portal.package.days': portal('Days (1 to 30)', 'Siku (1 hadi 30)'),
  'portal.package.days_invalid': portal('Choose from 1 to 30 days.', 'Chagua siku 1 hadi 30.'),
  'portal.package.daily_help': portal(
    'Pay for as many days as you like: the price is the days times KES {price}.',
    'Lipia siku unazotaka: bei ni idadi ya siku mara KES {price}.',
  ),
  'portal.package.promo_code': portal('Promo code (if you have one)', 'Msimbo wa punguzo (kama unao)'),
  'portal.packages.title': portal('Tips packages and prices', 'Vifurushi vya tips na bei'),
  'portal.packages.description': portal('Tips packages of {business} by SMS and on the web, with their prices.', 'Vifurushi vya tips vya {business} kwa SMS na kwenye tovuti, na bei zake.'),
  'portal.packages.heading': portal('Packages', 'Vifurushi'),
  'portal.packages.intro': portal(
    'Choose a package and pay with M-Pesa. Renewing adds the days to what you have left.',
    'Chagua kifurushi na ulipe kwa M-Pesa. Ukilipia tena, siku zinaongezwa kwa zile ulizobaki nazo.',
  ),
  'portal.packages.none': portal('No package is on sale right now.', 'Hakuna kifurushi kinachouzwa sasa.'),
  'portal.packages.category': portal('{category}: account number {code}', '{category}: nambari ya akaunti {code}'),
  'portal.package.title': portal('{category} tips, {days, plural, one {# day} other {# days}} {medium}', 'Tips za {category}, siku {days} {medium}'),
  'portal.package.description': portal('{title} for {price}, paid with M-Pesa.', '{title} kwa {price}, lipa kwa M-Pesa.'),
  'portal.package.web': portal('Read every tip posted in this category on this site.', 'Soma kila tip ya aina hii kwenye tovuti hii.'),
  'portal.package.sms': portal('Receive the tips of this category by SMS.', 'Pokea tips za aina hii kwa SMS.'),
  'portal.package.request_to': portal('The payment request goes to {phone}.', 'Ombi la malipo litatumwa kwa {phone}.'),
  'portal.package.age_declaration': portal(
    'I am 18 years old or older. Betting tips are for adults only; gambling is addictive, play responsibly.',
    'Nina umri wa miaka 18 au zaidi. Tips za kubeti ni za watu wazima pekee; kamari ni uraibu, cheza kwa uwajibikaji.',
  ),
  'portal.package.age_required': portal('Tick that you are 18 or older to buy.', 'Weka alama kwamba una miaka 18 au zaidi ili ununue.'),
  'portal.package.sign_in_first': portal('You sign in with your phone number first.', 'Kwanza utaingia kwa nambari yako ya simu.'),
  'portal.package.recent': portal('Recent tips in {category}', 'Tips za karibuni za {category}'),

  // Help.
  'portal.help.title': portal('Help: how to pay and how to stop SMS', 'Msaada: jinsi ya kulipa na kusitisha SMS'),
  'portal.help.description': portal('How to pay {business} by M-Pesa, the account numbers, and how to stop SMS.', 'Jinsi ya kulipa {business} kwa M-Pesa, nambari za akaunti, na jinsi ya kusitisha SMS.'),
  'portal.help.heading': portal('Help', 'Msaada'),
  'portal.help.stk': portal(
    'On a package page, press Pay with M-Pesa: your phone asks for your M-Pesa PIN and the package starts as soon as you pay.',
    'Kwenye ukurasa wa kifurushi, bonyeza Lipa kwa M-Pesa: simu yako itaomba PIN yako ya M-Pesa na kifurushi kinaanza mara tu ukilipa.',
  ),
  'portal.help.stopping': portal('Stopping SMS', 'Kusitisha SMS'),
  'portal.help.stop': portal(
    'Reply STOP to any of our messages, dial {optOut}, or sign in and use My account. Send START to receive them again. Receipts and sign-in codes still reach you.',
    'Jibu STOP kwa ujumbe wetu wowote, piga {optOut}, au ingia utumie Akaunti yangu. Tuma START kuzipokea tena. Risiti na nambari za kuingia zitaendelea kukufikia.',
  ),
  'portal.help.hand': portal('Need a hand?', 'Unahitaji msaada?'),
  'portal.help.call': portal('Call or text {support}.', 'Piga simu au tuma SMS kwa {support}.'),

  // The record.
  'portal.record.title': portal('Our track record', 'Rekodi yetu'),
  'portal.record.description': portal(
    'The record of the tips of {business} per category, ticket by ticket: hit rate, profit and ROI computed from every result.',
    'Rekodi ya tips za {business} kwa kila aina, tiketi kwa tiketi: kiwango cha ushindi, faida na ROI kutoka kila matokeo.',
  ),
  'portal.record.intro': portal(
    'Every tip counts from the moment we publish it, before kick-off; the figures are computed from the results, at 1 unit per ticket.',
    'Kila tip inahesabiwa tangu tunapoichapisha, kabla ya mechi kuanza; takwimu zinatokana na matokeo, kwa uniti 1 kwa kila tiketi.',
  ),
  'portal.record.periods': portal('Period', 'Kipindi'),
  'portal.record.categories': portal('Category', 'Aina ya tips'),
  'portal.record.all_categories': portal('All categories', 'Aina zote'),
  'portal.record.settled': portal('{count, plural, one {# settled ticket} other {# settled tickets}}', 'tiketi {count} zilizokamilika'),
  'portal.record.range': portal('{from} to {to}', '{from} hadi {to}'),
  'portal.record.pending': portal('{count} pending', '{count} zinasubiri'),
  'portal.record.none_settled': portal('No settled ticket in this period yet.', 'Bado hakuna tiketi iliyokamilika katika kipindi hiki.'),
  'portal.record.no_category': portal('No category has a ticket in this period.', 'Hakuna aina yenye tiketi katika kipindi hiki.'),
  'portal.record.hit_rate': portal('Hit rate', 'Kiwango cha ushindi'),
  'portal.record.profit': portal('Profit', 'Faida'),
  'portal.record.roi': portal('ROI', 'ROI'),
  'portal.record.average_clv': portal('Average CLV', 'Wastani wa CLV'),
  'portal.record.sample': portal(
    '{decided, plural, one {On # decided ticket} other {On # decided tickets}} the true hit rate is between {low} % and {high} % (95 % confidence, Wilson score).',
    'Kwa tiketi {decided} zilizoamuliwa, kiwango halisi cha ushindi kiko kati ya {low} % na {high} % (uhakika wa 95 %, Wilson).',
  ),
  'portal.record.outcomes': portal('Won, lost, void', 'Imeshinda, imepoteza, imebatilishwa'),
  'portal.record.average_odds': portal('Average odds', 'Odds za wastani'),
  'portal.record.current_run': portal('Current run', 'Mfululizo wa sasa'),
  'portal.record.run_won': portal('{count} won', '{count, plural, one {# imeshinda} other {# zimeshinda}}'),
  'portal.record.run_lost': portal('{count} lost', '{count, plural, one {# imepoteza} other {# zimepoteza}}'),
  'portal.record.units': portal('{units} units', 'uniti {units}'),
  'portal.record.chart': portal('Cumulative profit in units', 'Faida ya jumla kwa uniti'),
  'portal.record.chart_summary': portal(
    'From {from} to {to}: {units} units after {count, plural, one {# settled ticket} other {# settled tickets}}.',
    'Kuanzia {from} hadi {to}: uniti {units} baada ya tiketi {count} zilizokamilika.',
  ),
  'portal.record.tickets': portal('Tickets, newest first', 'Tiketi, za karibuni kwanza'),
  'portal.record.public_rule': portal(
    'A ticket is listed here once all its matches have kicked off and every result is in.',
    'Tiketi inaonyeshwa hapa baada ya mechi zake zote kuanza na matokeo yote kuingizwa.',
  ),
  'portal.record.no_tickets': portal('No settled ticket to list yet.', 'Bado hakuna tiketi iliyokamilika ya kuonyesha.'),
  'portal.record.match': portal('Match', 'Mechi'),
  'portal.record.pick': portal('Pick', 'Chaguo'),
  'portal.record.odds': portal('Odds', 'Odds'),
  'portal.record.not_verified': portal('not verified against the sports-data feed', 'haijathibitishwa na takwimu za michezo'),
  'portal.record.proof': portal(
    'Proof: {hash} (SHA-256 of the previous hash and this ticket as published; the whole chain is in record.csv)',
    'Uthibitisho: {hash} (SHA-256 ya hash iliyotangulia na tiketi hii ilivyochapishwa; mnyororo wote uko kwenye record.csv)',
  ),
  'portal.record.clv': portal('closing odds {odds}, CLV {clv} %', 'odds za mwisho {odds}, CLV {clv} %'),
  'portal.record.odds_taken': portal('odds from {source}, taken {time}', 'odds kutoka {source}, zilichukuliwa {time}'),
  'portal.record.odds_typed': portal('odds typed by us, not from the feed', 'odds tulizoandika, si kutoka kwa takwimu'),
  'portal.record.source_median': portal("the feed's median of bookmakers", 'wastani wa bookmakers wa takwimu'),
  'portal.record.result_feed': portal('result from the feed', 'matokeo kutoka kwa takwimu za michezo'),
  'portal.record.result_corrected': portal('corrected: feed said {result}', 'imerekebishwa: takwimu zilisema {result}'),
  'portal.record.chain_head': portal(
    'Chain head: {hash}. Keep it: if an earlier ticket were changed or removed, the chain would no longer lead to it.',
    'Kichwa cha mnyororo: {hash}. Kihifadhi: tiketi ya awali ikibadilishwa au kuondolewa, mnyororo hautafika tena kwake.',
  ),
  'portal.record.result': portal('Result', 'Matokeo'),
  'portal.record.ticket': portal('{category}, match day {date}', '{category}, siku ya mechi {date}'),
  'portal.record.ticket_total': portal('Combined odds {odds}: {result}, {units} units', 'Odds za jumla {odds}: {result}, uniti {units}'),
  'portal.result.won': portal('Won', 'Imeshinda'),
  'portal.result.lost': portal('Lost', 'Imepoteza'),
  'portal.result.void': portal('Void', 'Imebatilishwa'),
  'portal.result.half_won': portal('Half won', 'Nusu imeshinda'),
  'portal.result.half_lost': portal('Half lost', 'Nusu imepoteza'),
  'portal.record.see_packages': portal('See packages', 'Tazama vifurushi'),
  'portal.period.all': portal('All time', 'Tangu mwanzo'),
  'portal.period.today': portal('Today', 'Leo'),
  'portal.period.yesterday': portal('Yesterday', 'Jana'),
  'portal.period.this-week': portal('This week', 'Wiki hii'),
  'portal.period.last-7-days': portal('Last 7 days', 'Siku 7 zilizopita'),
  'portal.period.this-month': portal('This month', 'Mwezi huu'),
  'portal.period.last-month': portal('Last month', 'Mwezi uliopita'),

  // Paging.
  'portal.pager.label': portal('Pages', 'Kurasa'),
  'portal.pager.newer': portal('Newer', 'Mpya zaidi'),
  'portal.pager.older': portal('Older', 'Za zamani zaidi'),
  'portal.pager.page': portal('Page {page} of {last}', 'Ukurasa {page} kati ya {last}'),

  // Signing in.
  'portal.sign_in.title': portal('Sign in', 'Ingia'),
  'portal.sign_in.description': portal('Sign in to {business} with your phone number.', 'Ingia kwenye {business} kwa nambari yako ya simu.'),
  'portal.sign_in.intro': portal('No password: we send a code by SMS to your phone.', 'Hakuna nenosiri: tunakutumia nambari ya kuingia kwa SMS.'),
  'portal.sign_in.phone': portal('Phone number', 'Nambari ya simu'),
  'portal.sign_in.send': portal('Send me a code', 'Nitumie nambari ya kuingia'),
  'portal.sign_in.code': portal('6-digit code sent to {phone}', 'Nambari ya tarakimu 6 iliyotumwa kwa {phone}'),
  'portal.sign_in.button': portal('Sign in', 'Ingia'),
  'portal.sign_in.no_sms': portal('No SMS?', 'Hujapata SMS?'),
  'portal.sign_in.new_code': portal('Ask for a new code', 'Omba nambari mpya'),

  // A subscriber's pages.
  'portal.my_tips.title': portal('My tips', 'Tips zangu'),
  'portal.my_tips.description': portal('The tips of your web subscriptions.', 'Tips za usajili wako wa tovuti.'),
  'portal.my_tips.none': portal(
    'No tips to show: web tips appear here while you have an active web subscription.',
    'Hakuna tips za kuonyesha: tips za tovuti zinaonekana hapa ukiwa na usajili wa tovuti unaoendelea.',
  ),
  // A pause of a weekly or monthly subscription from My account (decision 090).
  'portal.pause.days': portal('Pause my tips for how many days? 1 to {max}', 'Sitisha tips zangu kwa siku ngapi? 1 hadi {max}'),
  'portal.pause.button': portal('Pause', 'Sitisha'),
  'portal.pause.note': portal(
    'You can pause once per subscription. It then ends as many days later, and an automatic renewal moves with it.',
    'Unaweza kusitisha mara moja kwa kila usajili. Kisha unaisha siku hizo baadaye, na kulipia kiotomatiki kunasogea pia.',
  ),
  'portal.pause.paused': portal('Tips paused from {from} until {until}.', 'Tips zimesitishwa kuanzia {from} hadi {until}.'),
  'portal.auto_renew.title': portal('Automatic renewal', 'Kulipia kiotomatiki'),
  'portal.auto_renew.offer': portal(
    'Renew automatically by M-Pesa Ratiba: KES {amount} {frequency, select, daily {every day} weekly {every week} other {every month}}, from {date} until {end}. You approve it once with your M-Pesa PIN.',
    'Lipia kiotomatiki kwa M-Pesa Ratiba: KES {amount} {frequency, select, daily {kila siku} weekly {kila wiki} other {kila mwezi}}, kuanzia {date} hadi {end}. Unakubali mara moja kwa PIN yako ya M-Pesa.',
  ),
  'portal.auto_renew.turn_on': portal('Turn on automatic renewal', 'Washa kulipia kiotomatiki'),
  'portal.auto_renew.status': portal(
    'Automatic renewal: {status, select, requested {being set up} pending {waiting for your M-Pesa PIN} active {on} other {off}}',
    'Kulipia kiotomatiki: {status, select, requested {kunaandaliwa} pending {kunasubiri PIN yako ya M-Pesa} active {kumewashwa} other {kumezimwa}}',
  ),
  'portal.auto_renew.next': portal(
    'Next payment: KES {amount} on {date} ({frequency, select, daily {every day} weekly {every week} other {every month}} until {end}).',
    'Malipo yajayo: KES {amount} tarehe {date} ({frequency, select, daily {kila siku} weekly {kila wiki} other {kila mwezi}} hadi {end}).',
  ),
  'portal.auto_renew.declined': portal(
    'Your automatic renewal was declined in M-Pesa on {date}: no money will be taken. You can turn it on again.',
    'Ombi lako la kulipia kiotomatiki lilikataliwa kwenye M-Pesa tarehe {date}: hakuna pesa itakayokatwa. Unaweza kuwasha tena.',
  ),
  'portal.auto_renew.how_to_stop': portal(
    'Stop it here in one step. M-Pesa gives us no way to cancel the standing order itself, so also cancel it in the M-Pesa app (M-Pesa Ratiba) or by dialling *334#.',
    'Sitisha hapa kwa hatua moja. M-Pesa haituruhusu kughairi agizo lenyewe, kwa hivyo pia ughairi kwenye programu ya M-Pesa (M-Pesa Ratiba) au kwa kupiga *334#.',
  ),
  'portal.auto_renew.stop': portal('Stop automatic renewal', 'Sitisha kulipia kiotomatiki'),
  'portal.notice.auto_renew_on': portal(
    'Check your phone and enter your M-Pesa PIN to approve automatic renewal.',
    'Angalia simu yako na uweke PIN yako ya M-Pesa kukubali kulipia kiotomatiki.',
  ),
  'portal.notice.auto_renew_stopped': portal(
    'Automatic renewal is stopped; we sent you an SMS. Also cancel it in the M-Pesa app or *334#.',
    'Kulipia kiotomatiki kumesitishwa; tumekutumia SMS. Pia ughairi kwenye programu ya M-Pesa au *334#.',
  ),
  'portal.trial.offer': portal(
    'Try it free for {days, plural, one {# day} other {# days}}, once per number.',
    'Jaribu bure kwa {days, plural, one {siku #} other {siku #}}, mara moja kwa kila nambari.',
  ),
  'portal.trial.offer_auto_renew': portal(
    'Try it free for {days, plural, one {# day} other {# days}} with automatic renewal: the first M-Pesa payment of KES {amount} is taken on {date}, after the trial. You approve it with your M-Pesa PIN.',
    'Jaribu bure kwa {days, plural, one {siku #} other {siku #}} ukiwasha kulipia kiotomatiki: malipo ya kwanza ya M-Pesa ya KES {amount} yatakatwa tarehe {date}, baada ya majaribio. Unakubali kwa PIN yako ya M-Pesa.',
  ),
  'portal.trial.start': portal('Start a free trial', 'Anza majaribio ya bure'),
  'portal.trial.with_auto_renew': portal(
    'Renew automatically after the trial (M-Pesa Ratiba)',
    'Lipia kiotomatiki baada ya majaribio (M-Pesa Ratiba)',
  ),
  'portal.trial.started': portal(
    'Your free trial of {package} has started: your tips run until {date}. It costs nothing and is not a purchase.',
    'Majaribio yako ya bure ya {package} yameanza: tips zako zinaendelea hadi {date}. Ni bure na si ununuzi.',
  ),
  'portal.trial.started_auto_renew': portal(
    'Your free trial of {package} has started: your tips run until {date}. Check your phone and enter your M-Pesa PIN to approve automatic renewal from {date}.',
    'Majaribio yako ya bure ya {package} yameanza: tips zako zinaendelea hadi {date}. Angalia simu yako na uweke PIN yako ya M-Pesa kukubali kulipia kiotomatiki kuanzia {date}.',
  ),
  'portal.trial.used': portal(
    'This number has already had the free trial of this package. You can buy it below.',
    'Nambari hii imeshapata majaribio ya bure ya kifurushi hiki. Unaweza kukinunua hapa chini.',
  ),
  'portal.trial.excluded': portal(
    'You have excluded yourself from gambling: no free trial can be started for this number.',
    'Umejizuia kucheza kamari: hakuna majaribio ya bure yanayoweza kuanzishwa kwa nambari hii.',
  ),
  'portal.trial.erased': portal(
    'The data of this number was erased at the request of its owner: no free trial can be started for it.',
    'Data ya nambari hii ilifutwa kwa ombi la mwenye nambari: hakuna majaribio ya bure yanayoweza kuanzishwa kwake.',
  ),
  'portal.trial.needs_auto_renew': portal(
    'This free trial comes only with automatic renewal: tick Renew automatically after the trial.',
    'Majaribio haya ya bure yanakuja tu na kulipia kiotomatiki: weka alama kwenye Lipia kiotomatiki baada ya majaribio.',
  ),
  'portal.trial.none': portal('This package has no free trial.', 'Kifurushi hiki hakina majaribio ya bure.'),
  'portal.account.title': portal('My account', 'Akaunti yangu'),
  'portal.account.description': portal('Your subscriptions and SMS preferences.', 'Usajili wako na machaguo yako ya SMS.'),
  'portal.account.subscriptions': portal('My subscriptions', 'Usajili wangu'),
  'portal.account.active': portal(
    'Active until {date}, {days, plural, one {# day} other {# days}} left',
    'Unaendelea hadi {date}, zimebaki siku {days}',
  ),
  'portal.account.renews': portal('Active until {date}, renews automatically on {next}', 'Unaendelea hadi {date}, unalipiwa kiotomatiki tarehe {next}'),
  'portal.account.expired': portal('Expired on {date}', 'Uliisha {date}'),
  'portal.account.renew': portal('Renew', 'Lipia tena'),
  'portal.account.none': portal('You have no subscription yet.', 'Bado huna usajili.'),
  'portal.account.see_packages': portal('See packages', 'Tazama vifurushi'),
  'portal.account.sms': portal('SMS', 'SMS'),
  'portal.account.receives': portal('You receive our tips and offers by SMS.', 'Unapokea tips na ofa zetu kwa SMS.'),
  'portal.account.stop': portal('Stop SMS', 'Sitisha SMS'),
  'portal.account.stopped': portal('You have stopped our SMS: you receive only receipts and sign-in codes.', 'Umesitisha SMS zetu: unapokea risiti na nambari za kuingia pekee.'),
  'portal.account.restart': portal('Restart SMS', 'Anzisha SMS tena'),
  'portal.account.offers': portal('Offers', 'Ofa'),
  // Self-exclusion (decision 059).
  'portal.account.exclusion': portal('Take a break: self-exclusion', 'Pumzika: jiepushe'),
  'portal.account.exclusion_text': portal(
    'Exclude yourself from Betdesk: no tips sales, offers or reminders, and automatic renewal stops. What you already paid for still arrives. Nobody can end it early, not even us.',
    'Jiepushe na Betdesk: hakuna mauzo ya tips, ofa wala vikumbusho, na kulipia kiotomatiki kunasitishwa. Ulicholipia bado kitafika. Hakuna anayeweza kuisitisha mapema, hata sisi.',
  ),
  'portal.account.exclusion_period': portal('For how long', 'Kwa muda gani'),
  'portal.account.exclusion_days': portal('{days} days', 'Siku {days}'),
  'portal.account.exclusion_forever': portal('For good', 'Milele'),
  'portal.account.exclusion_confirm': portal('I understand it cannot be ended early', 'Naelewa kwamba haiwezi kusitishwa mapema'),
  'portal.account.exclusion_button': portal('Exclude me', 'Niepushe'),
  'portal.account.save': portal('Save', 'Hifadhi'),
  // A subscriber's own referral code (decision 088).
  'portal.account.referral': portal('Invite a friend', 'Alika rafiki'),
  'portal.account.referral_text': portal(
    'Give your referral code {code} to a friend. When they buy tips for the first time with it, you get free days once their payment has settled.',
    'Mpe rafiki msimbo wako wa rufaa {code}. Akinunua tips kwa mara ya kwanza kwa msimbo huo, unapata siku za bure malipo yake yakishatulia.',
  ),
  'portal.account.offers_note': portal(
    'Without this, we send you only what you pay for, receipts and sign-in codes.',
    'Bila hili, tunakutumia tu unacholipia, risiti na nambari za kuingia.',
  ),
  'portal.sms.description': portal('SMS preferences.', 'Machaguo ya SMS.'),
  'portal.sms.restart_question': portal('Restart SMS?', 'Uanzishe SMS tena?'),
  'portal.sms.stop_question': portal('Stop SMS?', 'Usitishe SMS?'),
  'portal.sms.stop_text': portal(
    'You will receive no more tips or offers by SMS, even those you paid for. Receipts and sign-in codes still reach you.',
    'Hutapokea tena tips wala ofa kwa SMS, hata zile ulizolipia. Risiti na nambari za kuingia zitaendelea kukufikia.',
  ),
  'portal.sms.yes_restart': portal('Yes, restart SMS', 'Ndiyo, anzisha SMS tena'),
  'portal.sms.yes_stop': portal('Yes, stop SMS', 'Ndiyo, sitisha SMS'),
  'portal.sms.cancel': portal('Cancel', 'Ghairi'),

  // A payment.
  'portal.purchase.title': portal('Payment', 'Malipo'),
  'portal.purchase.description': portal('Your M-Pesa payment.', 'Malipo yako ya M-Pesa.'),
  'portal.purchase.amount': portal('{amount} by M-Pesa', '{amount} kwa M-Pesa'),
  'portal.purchase.pending': portal('Waiting for your M-Pesa PIN...', 'Tunasubiri PIN yako ya M-Pesa...'),
  'portal.purchase.paid': portal('Paid', 'Imelipwa'),
  'portal.purchase.cancelled': portal('Cancelled', 'Imeghairiwa'),
  'portal.purchase.failed': portal('Failed', 'Imeshindikana'),
  'portal.purchase.enter_pin': portal('Enter your M-Pesa PIN on your phone.', 'Weka PIN yako ya M-Pesa kwenye simu yako.'),
  'portal.purchase.refresh': portal('Refresh', 'Onyesha upya'),
  'portal.purchase.receipt': portal('Receipt {receipt}.', 'Risiti {receipt}.'),
  'portal.purchase.runs_until': portal('Your subscription now runs until {date}.', 'Usajili wako sasa unaendelea hadi {date}.'),
  'portal.purchase.waiting': portal('We are waiting for M-Pesa to confirm.', 'Tunasubiri M-Pesa ithibitishe.'),
  'portal.purchase.not_taken': portal('M-Pesa did not take the payment.', 'M-Pesa haikupokea malipo.'),
  'portal.purchase.try_again': portal('You can try again from the package page.', 'Unaweza kujaribu tena kutoka ukurasa wa kifurushi.'),
} satisfies Record<string, CatalogueText>;
