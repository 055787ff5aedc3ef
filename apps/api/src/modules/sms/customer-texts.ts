import type { Queryable } from '../../db/client.ts';
import { customerTexts, isEditableText, type CustomerTextId, type Language } from '../../customer-texts/catalogue.ts';
import { fill, type TextValues } from '../../customer-texts/format.ts';
import { settingKeyOf } from '../../customer-texts/texts.ts';
import { bannedClaimsIn, withResponsibleGamblingLines } from '../advert-rules/service.ts';
import { getSetting } from '../settings/service.ts';
import { languageOf } from './languages.ts';

/**
 * A customer text in one language, filled: the business's own wording (Settings) for an editable
 * text, the catalogue's otherwise. The catalogue (src/customer-texts) is ground every module reads;
 * what reads the database to choose a wording or a person's language lives here, beside the phone's
 * language.
 */
export async function customerText(db: Queryable, id: CustomerTextId, language: Language, values: TextValues = {}): Promise<string> {
  return fill(await customerTemplate(db, id, language), values, language);
}

/** A customer text in one language before it is filled (for a caller that must drop a clause first). */
export async function customerTemplate(db: Queryable, id: CustomerTextId, language: Language): Promise<string> {
  const template = isEditableText(id)
    ? await getSetting(db, settingKeyOf(id, language) as Parameters<typeof getSetting>[1])
    : customerTexts[id][language];
  return String(template);
}

/** A customer text for the person with this phone, in their language. */
export async function customerTextFor(db: Queryable, phone: string, id: CustomerTextId, values: TextValues = {}): Promise<string> {
  return customerText(db, id, await languageOf(db, phone), values);
}

/**
 * A promotional customer text (the renewal and recovery reminders) as it leaves (decision 061): while
 * `rg_promotion_rules` is on, with the responsible-gambling lines in its language at the end, and
 * from the catalogue's wording when the business's holds a banned claim (saved while the rules were
 * off: saving one is refused while they are on).
 */
export async function promotionalText(db: Queryable, id: CustomerTextId, language: Language, values: TextValues = {}): Promise<string> {
  const rulesOn = await getSetting(db, 'rg_promotion_rules');
  let template = await customerTemplate(db, id, language);
  if (rulesOn && bannedClaimsIn(template).length > 0) template = customerTexts[id][language];
  return withResponsibleGamblingLines(fill(template, values, language), language, rulesOn);
}

/** A promotional customer text for the person with this phone, in their language. */
export async function promotionalTextFor(db: Queryable, phone: string, id: CustomerTextId, values: TextValues = {}): Promise<string> {
  return promotionalText(db, id, await languageOf(db, phone), values);
}
