/**
 * A plain-SQL dump (pg_dump's output) cut into pieces of about `size` characters, each ending at the
 * end of a statement, so the embedded database can load it one piece at a time inside one transaction
 * and the process's event loop gets a turn between pieces (decision 102). Joined, the pieces are the
 * text again, character for character.
 *
 * A `;` ends a statement only outside what can hold one: a quoted string ('…', with '' inside; E'…'
 * with backslash escapes too), a quoted name ("…"), a dollar-quoted body ($$…$$, $tag$…$tag$), a line
 * comment (-- to the end of the line) and a block comment.
 */
export function* sqlChunks(text: string, size: number): Generator<string> {
  let start = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "'") {
      const escapes = i > 0 && (text[i - 1] === 'E' || text[i - 1] === 'e') && !/[\w$]/.test(text[i - 2] ?? '');
      i += 1;
      while (i < n) {
        if (escapes && text[i] === '\\') i += 2;
        else if (text[i] === "'") {
          if (text[i + 1] === "'") i += 2;
          else break;
        } else i += 1;
      }
      i += 1;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      i = end < 0 ? n : end + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '$' && !/[\w$]/.test(text[i - 1] ?? '')) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64))?.[0];
      if (tag) {
        const end = text.indexOf(tag, i + tag.length);
        i = end < 0 ? n : end + tag.length;
      } else i += 1;
    } else if (c === ';') {
      i += 1;
      if (i - start >= size) {
        yield text.slice(start, i);
        start = i;
      }
    } else i += 1;
  }
  if (start < n) yield text.slice(start);
}
