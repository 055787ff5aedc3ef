/**
 * The claims a promotional text may not make (decision 061), in English and Kiswahili, in this one
 * file: the Gambling Control Act 2025 bars presenting gambling as a source of income or an
 * investment, and the BCLB's advertising guidelines of June 2025 bar depicting gambling as income,
 * glamorising it, and using former winners. docs/BUSINESS-RULES.md ("Responsible gambling") says
 * where each rule comes from. A test per entry (test/advert-rules) sends its `example` as a
 * broadcast and saves it as a template, and both are refused.
 *
 * Each entry matches whole words, case-insensitively (`pattern`); `word` is how the refusal names
 * it when the text does not say it otherwise (the refusal names the words as found in the text).
 */
import type { Language } from '../../customer-texts/catalogue.ts';

export const CLAIM_RULES = {
  income: 'Presents gambling as a source of income or a salary (Gambling Control Act 2025; BCLB advertising guidelines, June 2025)',
  investment: 'Presents gambling as an investment (Gambling Control Act 2025)',
  certainty: 'Promises a sure, guaranteed or risk-free win: a misleading inducement (BCLB advertising guidelines, June 2025)',
  winner: 'Names a winner and an amount won: former winners may not be used to encourage gambling (BCLB advertising guidelines, June 2025)',
} as const;
export type ClaimRule = keyof typeof CLAIM_RULES;

export interface BannedClaim {
  word: string;
  language: Language;
  rule: ClaimRule;
  pattern: RegExp;
  /** A promotional text holding the claim, for its test. */
  example: string;
}

/** Whole words, any case, any spacing or hyphen between the words of a phrase. */
const words = (...parts: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join('[\\s-]+')})(?![\\p{L}\\p{N}])`, 'iu');
/** A word in any case, inside a pattern that must keep the case of names (`\\p{Lu}`). */
const anyCase = (word: string) => [...word].map((ch) => `[${ch.toLowerCase()}${ch.toUpperCase()}]`).join('');
/** An amount of shillings as an advert writes it: KES 50,000 / Ksh. 50k / sh 1.2M / shilingi 5000. */
const AMOUNT = `(?:${anyCase('kes')}|${anyCase('ksh')}s?|${anyCase('sh')}s?|${anyCase('shilingi')})\\.?\\s*\\d[\\d,.]*`;
/** A person's name: one or two capitalised words. */
const NAME = '\\p{Lu}\\p{Ll}+(?:\\s+\\p{Lu}(?:\\p{Ll}+|\\.))?';

export const BANNED_CLAIMS: readonly BannedClaim[] = [
  // English
  { word: 'income', language: 'en', rule: 'income', pattern: words('incomes?'), example: 'Turn our tips into a daily income. Pay 50 bob today.' },
  { word: 'salary', language: 'en', rule: 'income', pattern: words('salar(?:y|ies)'), example: 'Better than a salary: subscribe to D2 tips now.' },
  { word: 'earn a living', language: 'en', rule: 'income', pattern: words('earn', 'a', 'living'), example: 'Earn a living from football with our VIP tips.' },
  { word: 'investment', language: 'en', rule: 'investment', pattern: words('investments?'), example: 'VIP tips are the best investment you will make this month.' },
  { word: 'invest', language: 'en', rule: 'investment', pattern: words('invest(?:s|ing|ed)?'), example: 'Invest KES 100 in our tips and watch it grow.' },
  { word: 'sure win', language: 'en', rule: 'certainty', pattern: words('sure', 'wins?'), example: 'Sure win tonight: Arsenal v Chelsea tips inside.' },
  { word: 'sure bet', language: 'en', rule: 'certainty', pattern: words('sure', 'bets?'), example: 'Our sure bet of the day is ready. Send D2 now.' },
  { word: 'guaranteed', language: 'en', rule: 'certainty', pattern: words('guarantee(?:d|s)?'), example: 'Guaranteed tips this weekend, subscribe now.' },
  { word: 'risk-free', language: 'en', rule: 'certainty', pattern: words('risk', 'free'), example: 'A risk-free way to win big on Saturday.' },
  { word: 'no risk', language: 'en', rule: 'certainty', pattern: words('no', 'risks?'), example: 'No risk, all reward: VIP tips for KES 50.' },
  {
    word: 'named winner and amount won',
    language: 'en',
    rule: 'winner',
    pattern: new RegExp(`${NAME}\\s+(?:from\\s+\\p{Lu}\\p{Ll}+\\s+)?(?:has\\s+|just\\s+)?(?:won|wins|scooped|bagged|took home)\\s+${AMOUNT}`, 'u'),
    example: 'Congratulations! Peter from Kisumu won KES 250,000 with our jackpot tips.',
  },
  // Kiswahili
  { word: 'mapato', language: 'sw', rule: 'income', pattern: words('mapato'), example: 'Tips zetu ni mapato yako ya kila siku.' },
  { word: 'kipato', language: 'sw', rule: 'income', pattern: words('kipato'), example: 'Ongeza kipato chako kwa tips za VIP.' },
  { word: 'mshahara', language: 'sw', rule: 'income', pattern: words('m(?:i)?shahara'), example: 'Bora kuliko mshahara: jiunge na tips za D2 leo.' },
  { word: 'uwekezaji', language: 'sw', rule: 'investment', pattern: words('uwekezaji'), example: 'Tips za VIP ni uwekezaji bora mwezi huu.' },
  { word: 'wekeza', language: 'sw', rule: 'investment', pattern: words('(?:ku)?wekeza'), example: 'Wekeza KES 100 kwenye tips zetu leo.' },
  { word: 'ushindi wa uhakika', language: 'sw', rule: 'certainty', pattern: words('ushindi', 'wa', 'uhakika'), example: 'Ushindi wa uhakika usiku wa leo: tuma D2.' },
  { word: 'kushinda kwa uhakika', language: 'sw', rule: 'certainty', pattern: words('(?:ku)?shinda', 'kwa', 'uhakika'), example: 'Shinda kwa uhakika na tips zetu za wikendi.' },
  { word: 'imehakikishwa', language: 'sw', rule: 'certainty', pattern: words('(?:ime|ume|zime|ina|una)?hakikishiwa|(?:ime|zime)?hakikishwa'), example: 'Faida imehakikishwa kwa kila mteja wa VIP.' },
  { word: 'bila hatari', language: 'sw', rule: 'certainty', pattern: words('bila', 'hatari'), example: 'Shinda bila hatari yoyote kwa KES 50 tu.' },
  { word: 'hakuna hatari', language: 'sw', rule: 'certainty', pattern: words('hakuna', 'hatari'), example: 'Hakuna hatari: jiunge na VIP leo.' },
  {
    word: 'mshindi na kiasi alichoshinda',
    language: 'sw',
    rule: 'winner',
    pattern: new RegExp(`${NAME}\\s+(?:wa\\s+\\p{Lu}\\p{Ll}+\\s+)?(?:ame|ali|a)shinda\\s+${AMOUNT}`, 'u'),
    example: 'Hongera! Wanjiku wa Nakuru ameshinda KES 120,000 kwa tips zetu.',
  },
];

export interface ClaimFound {
  /** The words as the text holds them. */
  word: string;
  /** What the rule forbids and where it comes from. */
  rule: string;
}

/**
 * The banned claims a text holds, each once, in the order of the list. Both languages' lists are
 * read whatever the message's language: a Kiswahili message may borrow English words (Sheng).
 */
export function bannedClaimsIn(text: string): ClaimFound[] {
  const found: ClaimFound[] = [];
  const seen = new Set<string>();
  for (const claim of BANNED_CLAIMS) {
    const match = claim.pattern.exec(text);
    if (!match) continue;
    const word = match[0].replace(/\s+/g, ' ');
    if (seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    found.push({ word, rule: CLAIM_RULES[claim.rule] });
  }
  return found;
}
