// Lint rules of decision 028 for apps/api/src: modules meet only through their services, no
// re-export lets a module's queries or tables out, and a module's tables are written only by it.
import { dirname, relative, resolve, sep } from 'node:path';

const apiSrc = resolve(import.meta.dirname, '../apps/api/src');

/** `{ module, file }` of a path under apps/api/src/modules (file relative to the module), else null. */
function moduleOf(path) {
  const rel = relative(apiSrc, path).split(sep).join('/');
  const match = /^modules\/([^/]+)\/(.+)$/.exec(rel);
  return match ? { module: match[1], file: match[2] } : null;
}

function targetOf(context, source) {
  if (typeof source !== 'string' || !source.startsWith('.')) return null;
  return resolve(dirname(context.filename), source);
}

function srcPath(path) {
  return relative(apiSrc, path).split(sep).join('/');
}

/** Each import, `export ... from` and literal `import()` of a file, with the node to report on. */
function eachSource(context, visit) {
  const check = (node, source) => {
    const target = targetOf(context, source);
    if (target) visit(node, target);
  };
  return {
    ImportDeclaration: (node) => check(node.source, node.source.value),
    ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
    ExportAllDeclaration: (node) => check(node.source, node.source.value),
    ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
  };
}

/** The toolkits under the modules (test/architecture/layers.ts) and the files at the top. */
const TOOLKITS = ['http/', 'jobs/', 'integrations/', 'db/', 'lib/'];
const TOP = ['app.ts', 'server.ts', 'worker.ts', 'main.ts', 'bootstrap.ts', 'job-handlers.ts'];

const moduleBoundary = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      notService: "Reach the {{target}} module through its service.ts, not {{file}}.",
      routes: "Only src/app.ts registers a module's routes.",
      upward: '{{folder}} is a toolkit the modules use: it imports no module and nothing of the top (app, server, worker, job-handlers).',
    },
  },
  create(context) {
    const here = srcPath(context.filename);
    const from = moduleOf(context.filename);
    return eachSource(context, (node, target) => {
      const to = moduleOf(target);
      const toolkit = TOOLKITS.find((folder) => here.startsWith(folder));
      if (toolkit && (to || TOP.includes(srcPath(target)) || srcPath(target).startsWith('customer-texts/'))) {
        context.report({ node, messageId: 'upward', data: { folder: toolkit } });
        return;
      }
      if (!to || to.module === from?.module) return;
      if (to.file === 'routes.ts') {
        if (here !== 'app.ts') context.report({ node, messageId: 'routes' });
        return;
      }
      if (to.file !== 'service.ts') context.report({ node, messageId: 'notService', data: { target: to.module, file: to.file } });
    });
  },
};

/**
 * A module's service may re-export its own helpers, never its queries.ts, the schema's tables or
 * another module's code: that would let other modules past the boundary rule through the service.
 * Both `export ... from` and re-exporting an imported name are checked.
 */
const noLeakingReexport = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'object' } } }, additionalProperties: false }],
    messages: {
      leak: "A module does not re-export {{what}}: other modules would reach it past the boundary. Export a service function instead.",
    },
  },
  create(context) {
    const from = moduleOf(context.filename);
    if (!from) return {};
    const allowed = (context.options[0]?.allow ?? []).some((a) => srcPath(context.filename) === a.file);
    if (allowed) return {};
    const leakOf = (target) => {
      const to = moduleOf(target);
      const rel = srcPath(target);
      if (rel.startsWith('db/schema')) return "the schema's tables";
      if (to && to.module !== from.module) return `the ${to.module} module's code`;
      if (to && /(^|\/)queries(\.ts$|\/)/.test(to.file)) return 'its queries';
      return null;
    };
    const importedFrom = new Map();
    return {
      ImportDeclaration(node) {
        const target = targetOf(context, node.source.value);
        if (!target) return;
        for (const spec of node.specifiers) importedFrom.set(spec.local.name, target);
        // `import * as q from './queries.ts'` then `export { q }` is caught below like any name.
      },
      ExportAllDeclaration(node) {
        const target = targetOf(context, node.source.value);
        const what = target && leakOf(target);
        if (what) context.report({ node, messageId: 'leak', data: { what } });
      },
      ExportNamedDeclaration(node) {
        if (node.source) {
          const target = targetOf(context, node.source.value);
          const what = target && leakOf(target);
          if (what) context.report({ node, messageId: 'leak', data: { what } });
          return;
        }
        for (const spec of node.specifiers ?? []) {
          const target = importedFrom.get(spec.local.name);
          const what = target && leakOf(target);
          if (what) context.report({ node: spec, messageId: 'leak', data: { what } });
        }
        // `export const x = q.something` is a new name, not a re-export: a service function is the way.
      },
    };
  },
};

/**
 * Writes (`.insert(t)`, `.update(t)`, `.delete(t)`, and `insert into` / `update ... set` /
 * `delete from` in SQL text) on a table another module owns. Ownership is the `owners` option:
 * table (the schema's export name) -> module; `snake` maps the SQL name to the same table.
 */
/** Table names written by SQL text. */
function sqlWrites(text) {
  const names = [];
  for (const re of [/\binsert\s+into\s+([a-z_][a-z0-9_]*)/gi, /\bdelete\s+from\s+([a-z_][a-z0-9_]*)/gi, /\bupdate\s+([a-z_][a-z0-9_]*)(?:\s+(?:as\s+)?[a-z_]\w*)?\s+set\b/gi]) {
    for (const m of text.matchAll(re)) names.push(m[1]);
  }
  return names;
}

const ownTablesOnly = {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: {
          owners: { type: 'object' },
          allow: { type: 'array', items: { type: 'object' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      foreign: '{{table}} belongs to the {{owner}} module: call its service to change it.',
      unowned: '{{table}} has no owning module in eslint.config.js: say which module writes it.',
    },
  },
  create(context) {
    const here = moduleOf(context.filename);
    if (!here) return {};
    const { owners = {}, allow = [] } = context.options[0] ?? {};
    const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const bySqlName = new Map(Object.keys(owners).map((table) => [snake(table), table]));
    const allowed = (table) =>
      allow.some((a) => a.module === here.module && (a.tables === '*' || a.tables.includes(table)) && (!a.file || a.file === here.file));
    const check = (node, table) => {
      if (!(table in owners)) {
        context.report({ node, messageId: 'unowned', data: { table } });
        return;
      }
      if (owners[table] !== here.module && !allowed(table)) {
        context.report({ node, messageId: 'foreign', data: { table, owner: owners[table] } });
      }
    };
    const checkSql = (node, name) => {
      const table = bySqlName.get(name.toLowerCase());
      if (table) check(node, table);
    };
    const tables = new Set();
    return {
      ImportDeclaration(node) {
        if (!/db\/schema(\/|$)/.test(String(node.source.value))) return;
        for (const spec of node.specifiers) if (spec.type === 'ImportSpecifier') tables.add(spec.local.name);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        if (!['insert', 'update', 'delete'].includes(callee.property.name)) return;
        const arg = node.arguments[0];
        if (node.arguments.length === 1 && arg.type === 'Identifier' && tables.has(arg.name)) check(arg, arg.name);
      },
      Literal(node) {
        if (typeof node.value === 'string') for (const name of sqlWrites(node.value)) checkSql(node, name);
      },
      TemplateLiteral(node) {
        node.quasis.forEach((quasi, i) => {
          const text = quasi.value.cooked ?? quasi.value.raw;
          for (const name of sqlWrites(text)) checkSql(quasi, name);
          // The table interpolated: `insert into ${smsMessages}`, `update ${mpesaPayments} set`.
          const expr = node.expressions[i];
          if (/\b(insert\s+into|delete\s+from|update)\s*$/i.test(text) && expr?.type === 'Identifier' && tables.has(expr.name)) {
            check(expr, expr.name);
          }
        });
      },
    };
  },
};

export default {
  rules: { 'module-boundary': moduleBoundary, 'no-leaking-reexport': noLeakingReexport, 'own-tables-only': ownTablesOnly },
};
