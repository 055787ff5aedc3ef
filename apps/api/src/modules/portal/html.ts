/**
 * The smallest safe templating the portal needs: `html` escapes every interpolated value unless it
 * is already `Html` (a nested template, or `trusted()` HTML such as the sanitized HTML staff saved).
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false || part === true) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  parts.forEach((part, i) => {
    out += render(part) + strings[i + 1]!;
  });
  return new Html(out);
}

/** HTML that was sanitized when it was saved (tip posts, Winnings & Results). */
export const trusted = (value: string) => new Html(value);
