import { describe, expect, it } from 'vitest';
import { smsEncoding, unicodeCharacters } from '@betdesk/contract';
import { customerTexts, editableTexts, LANGUAGES, type CustomerTextId, type Language } from '../../src/customer-texts/catalogue.ts';
import { fill, placeholdersOf } from '../../src/customer-texts/format.ts';
import { settingKeyOf } from '../../src/customer-texts/texts.ts';
import { checkSettingValue, settingDefaults, type SettingKey } from '../../src/modules/settings/service.ts';
import { SCREEN_MAX, walk, type MenuFacts } from '../../src/modules/ussd/menu.ts';

const ids = Object.keys(customerTexts) as CustomerTextId[];

describe('The catalogue of customer texts', () => {
  it('has every id in English and Kiswahili with the same placeholders', () => {
    for (const id of ids) {
      const { en, sw } = customerTexts[id];
      expect(en.trim(), id).not.toBe('');
      expect(sw.trim(), id).not.toBe('');
      expect(placeholdersOf(sw).sort(), id).toEqual(placeholdersOf(en).sort());
    }
  });

  it('writes every text in both languages in GSM-7 only', () => {
    for (const id of ids) {
      for (const language of LANGUAGES) {
        const text = customerTexts[id][language];
        expect(unicodeCharacters(text), `${id} (${language})`).toEqual([]);
        expect(smsEncoding(text)).toBe('GSM-7');
      }
    }
  });

  it('seeds each editable text as two settings, English under its id and Kiswahili under <id>_sw', () => {
    for (const id of Object.keys(editableTexts) as (keyof typeof editableTexts)[]) {
      for (const language of LANGUAGES) {
        const key = settingKeyOf(id, language) as SettingKey;
        expect(settingDefaults[key]?.value, key).toBe(editableTexts[id][language]);
      }
    }
  });
});

describe('The fill function (every template)', () => {
  it('inserts $&, $1 and {name} inside values literally, never as patterns', () => {
    const values = { name: 'A$&B', package: '$1 $$ $`', expiry: "{name} $'" };
    expect(fill('Hi {name}, your {package} subscription expires on {expiry}.', values)).toBe(
      "Hi A$&B, your $1 $$ $` subscription expires on {name} $'.",
    );
    expect(fill(customerTexts.subscription_reminder_sms.sw, values, 'sw')).toContain('Habari A$&B, usajili wako wa $1 $$ $`');
  });

  it('fills plurals in each language', () => {
    expect(fill(customerTexts['sms.price_line'].en, { medium: 'SMS', days: 1, price: '50.00' })).toBe('SMS 1 day KES 50.00');
    expect(fill(customerTexts['sms.price_line'].en, { medium: 'SMS', days: 7, price: '300.00' })).toBe('SMS 7 days KES 300.00');
    expect(fill(customerTexts['sms.price_line'].sw, { medium: 'SMS', days: 7, price: '300.00' }, 'sw')).toBe('SMS siku 7 KES 300.00');
  });

  it('refuses to leave a placeholder unfilled', () => {
    expect(() => fill('Hi {name}', {})).toThrow();
  });
});

describe('Editable texts in Settings, per language', () => {
  it('takes a Kiswahili text that keeps its placeholders', () => {
    expect(checkSettingValue('tips_receipt_sms_sw', 'Asante {name}! KES {amount} ({receipt}) {package} hadi {expiry}.')).toContain('Asante');
  });

  it('refuses a text that drops a placeholder, adds one the system does not fill, or is not a valid message', () => {
    expect(() => checkSettingValue('tips_receipt_sms_sw', 'Asante {name}.')).toThrow(/must keep \{amount\}, \{receipt\}, \{package\}, \{expiry\}/);
    expect(() => checkSettingValue('sms_stop_category_reply', 'No more {category} tips, {name}.')).toThrow(/uses \{name\}, which the system does not fill in/);
    expect(() => checkSettingValue('sms_stop_category_reply_sw', 'Hutapokea tips za {category.')).toThrow(/not a valid message/);
  });

  it('refuses a customer SMS with a character outside GSM-7 (a curly apostrophe doubles the cost)', () => {
    expect(() => checkSettingValue('sms_stop_reply', 'You won\u2019t receive more tips. Send START to get them again.')).toThrow(/outside the SMS alphabet \(\u2019\)/);
  });

  it('takes only en or sw as the business default language', () => {
    expect(checkSettingValue('customer_language_default', 'sw')).toBe('sw');
    expect(() => checkSettingValue('customer_language_default', 'fr')).toThrow(/en, sw/);
  });
});

/** The longest the world may make each thing a screen shows. */
const LONG = 'Xy'.repeat(40);
function worstFacts(language: Language, flags: { optedOut: boolean; consented: boolean }): MenuFacts {
  const labels = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, label: `${LONG}`.slice(0, 28) }));
  return {
    language: async () => language,
    welcome: async () => LONG,
    optedOut: async () => flags.optedOut,
    categories: async () => labels,
    // Every other package is daily (decision 095): its days question is walked too.
    packages: async () => labels.map((l, i) => ({ ...l, label: `Web 365 days KES 99,999.99`, daily: i % 2 === 1 })),
    packageOnSale: async () => ({ category: LONG, medium: 'SMS', days: 365, price: 'KES 99,999.99', dayPrice: 'KES 99,999.99', phone: '0711 222 333' }),
    subscriptions: async () => labels.map(() => ({ category: LONG, code: 'X'.repeat(20), medium: 'SMS', date: '30 Sep 2026' })),
    // The most days the setting allows (30), and a subscription ending on the longest date.
    pausable: async () => ({
      maxDays: 30,
      subscriptions: labels.map((l) => ({ id: l.id, category: LONG, code: 'X'.repeat(20), medium: 'SMS', expiresAt: new Date('2026-09-20T12:00:00Z') })),
    }),
    takesPromoCodes: async () => true,
    promoPrice: async (_packageId, code) => ({ refusal: customerTexts['promo.used_by_phone'][language].replace('{code}', code.slice(0, 40)) }),
    asksAge: async () => true,
    consented: async () => flags.consented,
    consentWording: async () => customerTexts.marketing_consent_wording[language].repeat(3),
  };
}

/** Every path a punter can type, to depth 3, with one wrong input at each step. */
function paths(): string[] {
  const inputs = ['1', '2', '5', '6', '8', '98', '0', '9'];
  const all: string[] = [''];
  let frontier = [''];
  for (let depth = 0; depth < 3; depth += 1) {
    frontier = frontier.flatMap((p) => inputs.map((i) => (p === '' ? i : `${p}*${i}`)));
    all.push(...frontier);
  }
  return all;
}

describe('USSD screens', () => {
  it('fit 182 characters on every screen in both languages, with the longest names', async () => {
    let walked = 0;
    for (const language of LANGUAGES) {
      for (const flags of [{ optedOut: false, consented: false }, { optedOut: true, consented: true }]) {
        for (const path of paths()) {
          const out = await walk(path, worstFacts(language, flags));
          if (!('screen' in out)) continue;
          walked += 1;
          expect(out.screen.length, `${language} "${path}": ${out.screen}`).toBeLessThanOrEqual(SCREEN_MAX);
          expect(unicodeCharacters(out.screen), `${language} "${path}"`).toEqual([]);
        }
      }
    }
    expect(walked).toBeGreaterThan(1000);
  });

  it('ends every session within 182 characters in both languages, with the longest values', () => {
    const worst: Record<string, string> = {
      price: 'KES 99,999.99',
      category: LONG.slice(0, 28),
      medium: 'SMS',
      categories: `${LONG.slice(0, 20)}, ${LONG.slice(0, 20)}`,
      amount: '99999',
      end: '30 Sep 2027',
      // A package's days (a pause's are at most the setting's 30).
      days: '365',
    };
    for (const id of ids.filter((i) => customerTexts[i].channel === 'ussd')) {
      for (const language of LANGUAGES) {
        const values = Object.fromEntries(placeholdersOf(customerTexts[id][language]).map((p) => [p, worst[p] ?? LONG.slice(0, 40)]));
        expect(`END ${fill(customerTexts[id][language], values, language)}`.length, `${id} (${language})`).toBeLessThanOrEqual(SCREEN_MAX);
      }
    }
  });

  it('shows the main menu in Kiswahili with the language choice on it', async () => {
    const out = await walk('', worstFacts('sw', { optedOut: false, consented: false }));
    expect('screen' in out && out.screen).toMatch(/^CON .*\n1 Nunua tips\n2 Usajili wangu\n3 Tips za leo\n4 Sitisha SMS\n5 Ofa kwa SMS\n6 Lugha \/ Language\n7 Jiepushe\n8 Sitisha usajili$/);
  });
});
