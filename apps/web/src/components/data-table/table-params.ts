import { BusinessDay, DEFAULT_PAGE_SIZE, LISTS, PAGE_SIZES, SORT_DIRECTIONS, type ListDefinition, type ListName, type PageSize, type SortDirection } from '@betdesk/contract';

/**
 * The state of a remote-paged list as it lives in the URL (so a view can be bookmarked and
 * shared): page, perPage, search, sort, dir, from, to. Parsing is forgiving (a hand-edited URL
 * with a bad value falls back to the default); writing drops defaults, so a plain list has a
 * plain URL. Pure functions, shared by useTableState and its tests.
 */
export interface TableParams {
  page: number;
  perPage: PageSize;
  search: string;
  /** Always one of the list's sorts (the default when the URL names none). */
  sort: string | undefined;
  dir: SortDirection | undefined;
  from: string | undefined;
  to: string | undefined;
}

export type TableParamKey = keyof TableParams;

export const PARAM_KEYS: readonly TableParamKey[] = ['page', 'perPage', 'search', 'sort', 'dir', 'from', 'to'];

/** A list's definition, or none for a list outside LISTS (no sort, no dates). */
export function listDefinition(list: ListName | undefined): ListDefinition | undefined {
  return list ? (LISTS[list] as ListDefinition) : undefined;
}

export function paramName(key: TableParamKey, prefix: string | undefined): string {
  return prefix ? `${prefix}.${key}` : key;
}

function isDay(value: string | null): value is string {
  return value !== null && BusinessDay.safeParse(value).success;
}

/** The direction a column sorts in when first clicked: names A→Z, dates and amounts biggest first. */
export function firstDirection(def: ListDefinition, field: string): SortDirection {
  if (field === def.sorts[0]) return def.defaultDir;
  return field === 'name' ? 'asc' : 'desc';
}

export function readTableParams(
  params: URLSearchParams,
  def: ListDefinition | undefined,
  options: { prefix?: string; perPage?: PageSize } = {},
): TableParams {
  const get = (key: TableParamKey) => params.get(paramName(key, options.prefix));
  const page = Number(get('page'));
  const perPage = Number(get('perPage'));
  const sortParam = get('sort');
  const dirParam = get('dir');
  const sort = def ? (sortParam && def.sorts.includes(sortParam) ? sortParam : def.sorts[0]) : undefined;
  const dir = def
    ? dirParam && (SORT_DIRECTIONS as readonly string[]).includes(dirParam)
      ? (dirParam as SortDirection)
      : firstDirection(def, sort as string)
    : undefined;
  let from = def?.dated && isDay(get('from')) ? (get('from') as string) : undefined;
  let to = def?.dated && isDay(get('to')) ? (get('to') as string) : undefined;
  if (from && to && from > to) [from, to] = [to, from];
  const search = get('search') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    perPage: (PAGE_SIZES as readonly number[]).includes(perPage) ? (perPage as PageSize) : (options.perPage ?? DEFAULT_PAGE_SIZE),
    search: def && !def.searchable ? '' : search.trim(),
    sort,
    dir,
    from,
    to,
  };
}

/**
 * `params` with `patch` applied. Any change but the page's own goes back to page 1 (a new sort,
 * search or range starts from its first rows); defaults leave the URL.
 */
export function writeTableParams(
  params: URLSearchParams,
  patch: Partial<TableParams>,
  def: ListDefinition | undefined,
  options: { prefix?: string; perPage?: PageSize } = {},
): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: TableParamKey, value: string | number | undefined, fallback?: string | number) => {
    const name = paramName(key, options.prefix);
    if (value === undefined || value === '' || value === fallback) next.delete(name);
    else next.set(name, String(value));
  };
  const resetsPage = Object.keys(patch).some((key) => key !== 'page');
  if (resetsPage) next.delete(paramName('page', options.prefix));
  if ('page' in patch) set('page', patch.page, 1);
  if ('perPage' in patch) set('perPage', patch.perPage, options.perPage ?? DEFAULT_PAGE_SIZE);
  if ('search' in patch) set('search', patch.search?.trim());
  if ('sort' in patch || 'dir' in patch) {
    const current = readTableParams(params, def, options);
    const sort = 'sort' in patch ? patch.sort : current.sort;
    const dir = 'dir' in patch ? patch.dir : current.dir;
    const isDefault = def !== undefined && sort === def.sorts[0] && dir === def.defaultDir;
    set('sort', isDefault ? undefined : sort);
    set('dir', isDefault ? undefined : dir);
  }
  if ('from' in patch) set('from', patch.from);
  if ('to' in patch) set('to', patch.to);
  return next;
}

/** What the list endpoint is sent: paging plus the filters. */
export function listQueryOf(state: TableParams, def: ListDefinition | undefined) {
  return { page: state.page, perPage: state.perPage, ...filtersOf(state, def) };
}

/** What the CSV export is sent: the same filters without paging. */
export function filtersOf(state: TableParams, def: ListDefinition | undefined) {
  const out: { search?: string; sort?: string; dir?: SortDirection; from?: string; to?: string } = {};
  if (state.search && (!def || def.searchable)) out.search = state.search;
  if (def && state.sort) {
    out.sort = state.sort;
    out.dir = state.dir;
  }
  if (def?.dated) {
    if (state.from) out.from = state.from;
    if (state.to) out.to = state.to;
  }
  return out;
}
