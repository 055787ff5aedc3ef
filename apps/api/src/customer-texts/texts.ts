import { customerTexts, type CustomerTextId, type Language } from './catalogue.ts';
import { fill, type TextValues } from './format.ts';

/** The setting that holds an editable text in one language: the id itself in English, `<id>_sw` in Kiswahili. */
export const settingKeyOf = (id: string, language: Language) => (language === 'en' ? id : `${id}_sw`);

/**
 * A fixed (non-editable) text, for code that already knows the language and needs no database. A
 * text that reads the business's wording or the person's language is `customerText` /
 * `customerTextFor` in modules/sms/customer-texts.ts: the catalogue imports no module.
 */
export const fixedText = (id: CustomerTextId, language: Language, values: TextValues = {}): string =>
  fill(customerTexts[id][language], values, language);
