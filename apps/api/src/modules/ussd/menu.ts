/**
 * The USSD menu as a function of the path typed so far (Africa's Talking sends it whole, joined by
 * `*`): no session is stored. The path is replayed from the main menu; `0` steps back (so paging
 * back too), `98` shows the next page of a list, and an input a screen does not offer is dropped,
 * which shows that screen again with a short error when it was the last input.
 */

/** Africa's Talking's (and the networks') limit of one screen, `CON `/`END ` included. */
export const SCREEN_MAX = 182;
export const BACK = '0';
export const MORE = '98';
const INVALID = 'Invalid choice.\n';
const LABEL_MAX = 28;

export type Screen = `CON ${string}` | `END ${string}`;

export interface ListItem {
  id: number;
  label: string;
}

/** What the menu reads about the world; each is loaded only when a screen needs it. */
export interface MenuFacts {
  welcome(): Promise<string>;
  optedOut(): Promise<boolean>;
  categories(): Promise<ListItem[]>;
  packages(categoryId: number): Promise<ListItem[]>;
  /** The confirmation question of a package, or null when it is no longer for sale. */
  packageQuestion(packageId: number): Promise<string | null>;
  /** One line per running subscription. */
  subscriptions(): Promise<string[]>;
  /** Whether the phone has given marketing consent (and not withdrawn it). */
  consented(): Promise<boolean>;
  /** What a person agrees to when they give marketing consent (the setting). */
  consentWording(): Promise<string>;
}

/** What the final input asks to be done; each ends the session with the END text it returns. */
export type MenuAction =
  | { do: 'buy'; packageId: number }
  | { do: 'todays-tips' }
  | { do: 'sms'; receive: boolean }
  | { do: 'offers'; given: boolean };

type State =
  | { at: 'main' }
  | { at: 'categories'; page: number }
  | { at: 'packages'; categoryId: number; page: number }
  | { at: 'confirm'; packageId: number }
  | { at: 'subscriptions'; page: number }
  | { at: 'sms' }
  | { at: 'offers' };

type Step = { state: State } | { action: MenuAction } | null;

/** A label cut to fit a list line. */
export const short = (text: string, max = LABEL_MAX) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}.` : text);

/**
 * Items cut into pages that fit one screen under `header`, numbered 1..n across pages, with room
 * kept for the error line, `98 More` and `0 Back` on every page.
 */
export function paged(header: string, lines: string[], numbered: boolean): string[][] {
  const room = SCREEN_MAX - 'CON '.length - INVALID.length - header.length - `\n${MORE} More`.length - `\n${BACK} Back`.length;
  const pages: string[][] = [[]];
  lines.forEach((line, index) => {
    const text = numbered ? `${index + 1} ${line}` : line;
    const page = pages[pages.length - 1]!;
    const used = page.reduce((sum, l) => sum + 1 + l.length, 0);
    if (page.length > 0 && used + 1 + text.length > room) pages.push([text]);
    else page.push(text);
  });
  return pages;
}

function listScreen(header: string, pages: string[][], page: number): string {
  const more = page < pages.length - 1 ? `\n${MORE} More` : '';
  return `${header}\n${pages[page]!.join('\n')}${more}\n${BACK} Back`;
}

/** The first index shown on a page of a numbered list. */
const firstIndexOf = (pages: string[][], page: number) => pages.slice(0, page).reduce((n, p) => n + p.length, 0);

const CATEGORIES_HEADER = 'Buy tips: choose';
const SUBSCRIPTIONS_HEADER = 'My subscriptions:';

/** An input on a numbered list's page: `98` for the next page, or one of the numbers shown; else null. */
function listInput(input: string, items: ListItem[], header: string, page: number): { nextPage: number } | { chosen: ListItem } | null {
  const pages = paged(header, items.map((i) => i.label), true);
  if (input === MORE) return page < pages.length - 1 ? { nextPage: page + 1 } : null;
  if (!/^\d{1,3}$/.test(input)) return null;
  const first = firstIndexOf(pages, page);
  const index = Number(input) - 1;
  return index >= first && index < first + (pages[page]?.length ?? 0) ? { chosen: items[index]! } : null;
}

const packagesHeader = (category: string) => `${short(category)}: choose`;

async function step(state: State, input: string, facts: MenuFacts, categoryName: (id: number) => Promise<string>): Promise<Step> {
  switch (state.at) {
    case 'main':
      if (input === '1') return { state: { at: 'categories', page: 0 } };
      if (input === '2') return { state: { at: 'subscriptions', page: 0 } };
      if (input === '3') return { action: { do: 'todays-tips' } };
      if (input === '4') return { state: { at: 'sms' } };
      if (input === '5') return { state: { at: 'offers' } };
      return null;
    case 'categories': {
      const got = listInput(input, await facts.categories(), CATEGORIES_HEADER, state.page);
      if (!got) return null;
      return { state: 'nextPage' in got ? { ...state, page: got.nextPage } : { at: 'packages', categoryId: got.chosen.id, page: 0 } };
    }
    case 'packages': {
      const header = packagesHeader(await categoryName(state.categoryId));
      const got = listInput(input, await facts.packages(state.categoryId), header, state.page);
      if (!got) return null;
      return { state: 'nextPage' in got ? { ...state, page: got.nextPage } : { at: 'confirm', packageId: got.chosen.id } };
    }
    case 'confirm':
      return input === '1' ? { action: { do: 'buy', packageId: state.packageId } } : null;
    case 'subscriptions': {
      if (input !== MORE) return null;
      const pages = paged(SUBSCRIPTIONS_HEADER, await facts.subscriptions(), false);
      return state.page < pages.length - 1 ? { state: { at: 'subscriptions', page: state.page + 1 } } : null;
    }
    case 'sms':
      return input === '1' ? { action: { do: 'sms', receive: await facts.optedOut() } } : null;
    case 'offers':
      return input === '1' ? { action: { do: 'offers', given: !(await facts.consented()) } } : null;
  }
}

const AGREE = `\n1 I agree\n${BACK} Back`;
/** The question to one who consented; recorded as the wording of their withdrawal. */
export const OFFERS_STOP_QUESTION = 'You receive our offers by SMS. Stop them?';

/**
 * The consent question exactly as the screen shows it: the setting's wording, cut to fit one
 * screen with its error line. What is shown is what is recorded as agreed to.
 */
export function offersQuestion(wording: string): string {
  return short(wording, SCREEN_MAX - 'CON '.length - INVALID.length - AGREE.length);
}

async function render(state: State, facts: MenuFacts, categoryName: (id: number) => Promise<string>): Promise<Screen> {
  switch (state.at) {
    case 'main': {
      const sms = (await facts.optedOut()) ? 'Start SMS' : 'Stop SMS';
      return `CON ${short(await facts.welcome(), 40)}\n1 Buy tips\n2 My subscriptions\n3 Today's tips\n4 ${sms}\n5 Offers by SMS`;
    }
    case 'categories': {
      const items = await facts.categories();
      if (items.length === 0) return 'END No tips are on sale right now. Please try again later.';
      return `CON ${listScreen(CATEGORIES_HEADER, paged(CATEGORIES_HEADER, items.map((i) => i.label), true), state.page)}`;
    }
    case 'packages': {
      const items = await facts.packages(state.categoryId);
      if (items.length === 0) return 'END Nothing of this category is on sale right now.';
      const header = packagesHeader(await categoryName(state.categoryId));
      return `CON ${listScreen(header, paged(header, items.map((i) => i.label), true), state.page)}`;
    }
    case 'confirm': {
      const question = await facts.packageQuestion(state.packageId);
      return question === null ? 'END This package is no longer on sale.' : `CON ${question}\n1 Pay\n${BACK} Back`;
    }
    case 'subscriptions': {
      const lines = await facts.subscriptions();
      if (lines.length === 0) return `END ${SUBSCRIPTIONS_HEADER} none.\nChoose 1 Buy tips to subscribe.`;
      const pages = paged(SUBSCRIPTIONS_HEADER, lines, false);
      const shown = `${SUBSCRIPTIONS_HEADER}\n${pages[state.page]!.join('\n')}`;
      return state.page < pages.length - 1 ? `CON ${shown}\n${MORE} More\n${BACK} Back` : `END ${shown}`;
    }
    case 'sms':
      return (await facts.optedOut())
        ? `CON Receive our tips and offers by SMS again?\n1 Yes, start SMS\n${BACK} Back`
        : `CON Stop all tips and offers by SMS? Payment receipts still come.\n1 Yes, stop SMS\n${BACK} Back`;
    case 'offers':
      return (await facts.consented())
        ? `CON ${OFFERS_STOP_QUESTION}\n1 Yes, stop offers\n${BACK} Back`
        : `CON ${offersQuestion(await facts.consentWording())}${AGREE}`;
  }
}

/** A non-empty screen's text with the error line after its prefix. */
function withError(screen: Screen): Screen {
  return screen.startsWith('CON ') ? `CON ${INVALID}${screen.slice(4)}` : screen;
}

/**
 * Where the path leads: a screen to show, or an action to do (its END text comes from the caller).
 * Inputs after an action cannot come from a real session; they are dropped as invalid.
 */
export async function walk(text: string, facts: MenuFacts): Promise<{ screen: Screen } | { action: MenuAction }> {
  const inputs = text === '' ? [] : text.split('*').map((i) => i.trim());
  const names = new Map<number, string>();
  const categoryName = async (id: number) => {
    if (!names.has(id)) {
      for (const c of await facts.categories()) names.set(c.id, c.label);
    }
    return names.get(id) ?? 'Tips';
  };
  const path: State[] = [{ at: 'main' }];
  let invalid = false;
  for (const [index, input] of inputs.entries()) {
    const last = index === inputs.length - 1;
    invalid = false;
    if (input === BACK) {
      if (path.length > 1) path.pop();
      continue;
    }
    const next = await step(path[path.length - 1]!, input, facts, categoryName);
    if (next && 'action' in next && last) return { action: next.action };
    if (next && 'state' in next) path.push(next.state);
    else invalid = true;
  }
  const screen = await render(path[path.length - 1]!, facts, categoryName);
  return { screen: invalid ? withError(screen) : screen };
}
