import { describe, expect, it } from 'vitest';
import { sqlChunks } from '../../src/modules/backups/sql-chunks.ts';

/** The pieces an embedded restore loads one at a time (decision 102). */
describe('a dump cut into pieces of statements', () => {
  const pieces = (text: string, size = 1) => [...sqlChunks(text, size)];

  it('joins back to the dump, character for character, and ends every piece after a statement', () => {
    const dump = "SET a = 1;\nINSERT INTO public.t VALUES (1, 'x');\nINSERT INTO public.t VALUES (2, 'y');\n";
    const cut = pieces(dump, 12);
    expect(cut.join('')).toBe(dump);
    expect(cut).toEqual(['SET a = 1;\nINSERT INTO public.t VALUES (1, \'x\');', "\nINSERT INTO public.t VALUES (2, 'y');", '\n']);
  });

  it('never cuts inside a quoted string, a quoted name, a comment or a dollar-quoted body', () => {
    const dump = [
      "INSERT INTO public.sms VALUES (1, 'Win; then\nINSERT INTO public.x VALUES (2);\nit''s; done');",
      'INSERT INTO public."odd;name" VALUES (3);',
      '-- a comment; with a semicolon\nSELECT 1;',
      '/* block; comment */ SELECT 2;',
      'CREATE FUNCTION public.f() RETURNS trigger LANGUAGE plpgsql AS $$ begin return new; end; $$;',
      "CREATE FUNCTION public.g() RETURNS text LANGUAGE sql AS $body$ select 'a;b'; $body$;",
      "INSERT INTO public.t VALUES (E'back\\\\slash\\'; still', 'price $5; now');",
    ].join('\n');
    const cut = pieces(dump);
    expect(cut.join('')).toBe(dump);
    expect(cut.map((p) => p.trim().split(' ').slice(0, 3).join(' '))).toEqual([
      'INSERT INTO public.sms',
      'INSERT INTO public."odd;name"',
      '-- a comment;',
      '/* block; comment',
      'CREATE FUNCTION public.f()',
      'CREATE FUNCTION public.g()',
      'INSERT INTO public.t',
    ]);
  });

  it('gives a text without a statement end as one piece, and nothing for an empty one', () => {
    expect(pieces('SELECT 1')).toEqual(['SELECT 1']);
    expect(pieces('')).toEqual([]);
  });
});
