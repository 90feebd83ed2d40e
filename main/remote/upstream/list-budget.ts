/**
 * How many tools, resources, resource templates and prompts Airlock takes from one server, counted
 * as the pages of a list arrive (issue 17: a server cannot exhaust the machine).
 *
 * The SDK client's `listTools()` (and the other list verbs) walks up to 64 pages before it
 * returns, so a bound checked on the aggregate let a hostile server make Airlock hold 64 pages —
 * each up to the 64 MiB message bound — first. Each page now goes through the budget as it is
 * answered (`UpstreamClient.request`), and the first page past the bound ends the walk: no further
 * page is asked for.
 *
 * The bounds, each far above what real servers list:
 * - tools, 2,000: every tool is registered, pinned in settings.json and listed to every agent;
 *   1,000,000 tools cost 1.6 GB, a 57 MB settings file and a 12 s stall of every agent's
 *   `tools/list` (tool-count.security.test.ts).
 * - prompts and resource templates, 2,000 each: like tools they are definitions a server's author
 *   writes (a name, a description, arguments or a URI template), listed to every agent in one
 *   answer and matched on every original-name lookup; no real server has hundreds.
 * - resources, 10,000: resources are data (files, rows, pages), so a real server may list many
 *   more than it has definitions. Past the bound the list is cut, not refused (`cut` below): the
 *   server's first 10,000 are listed, its tools and prompts are unaffected, and a resource past the
 *   cut is still read by its `airlock://<server>/<uri>` form, which is routed by the server's name,
 *   not by the list (feature-catalog.ts `resolveUri`). A refusal would take a legitimate server's
 *   every tool down for listing its folder; paging through to the agent would not bound anything,
 *   since Airlock answers `resources/list` with one list merged from every server and needs each
 *   server's list itself (namespacing, original-URI lookups, list-change comparisons).
 */
export const MAX_SERVER_TOOLS = 2000;
export const MAX_SERVER_PROMPTS = 2000;
export const MAX_SERVER_TEMPLATES = 2000;
export const MAX_SERVER_RESOURCES = 10_000;

/**
 * The most pages one list walk reads. A server may page a legitimate list finely (5 a page is
 * allowed), so the SDK's own walk bound — 64 pages by default, which throws and fails the whole
 * listing — refused a server with 500 resources in 100 pages, and swallowed its templates as
 * none; the upstream client lifts it to one past this (upstream-client.ts). The item bounds above
 * bound what is held; this one bounds a server that pages empty or tiny pages without end.
 */
export const MAX_LIST_PAGES = 1000;

export type ListMethod =
  'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

const ITEMS: Record<ListMethod, { key: string; what: string }> = {
  'tools/list': { key: 'tools', what: 'tools' },
  'resources/list': { key: 'resources', what: 'resources' },
  'resources/templates/list': { key: 'resourceTemplates', what: 'resource templates' },
  'prompts/list': { key: 'prompts', what: 'prompts' },
};

/**
 * The request option that carries a walk's budget to each of its page requests. The SDK hands the
 * caller's options object to every page's `request()` (Client._listAllPages, SDK 2.4); a symbol
 * key survives a spread copy too. An SDK that stopped passing it would leave only the check on
 * the aggregate (listAllTools); list-budget.security.test.ts counts the pages served and says so.
 */
export const LIST_BUDGET = Symbol('airlock.listBudget');

/** A server listed more than Airlock takes: the server is in error with this message. */
export class ListLimitError extends Error {
  override name = 'ListLimitError';
}

/** A resource list past its bound: the walk ended, `kept` holds the items within it. */
export class ListCutError extends Error {
  override name = 'ListCutError';
  constructor(
    message: string,
    readonly kept: unknown[],
  ) {
    super(message);
  }
}

/** One list walk's count, fed page by page. */
export class ListBudget {
  private taken = 0;
  private pages = 0;
  /** The previous page's items, for the SDK's end-of-walk rule. */
  private previous: unknown[] | undefined;
  /** With `cut`: the items so far, for the list a cut walk leaves. */
  private readonly kept: unknown[] = [];

  constructor(
    readonly method: ListMethod,
    readonly limit: number,
    /** Keep the first `limit` items instead of refusing the list (resources). */
    private readonly cut = false,
  ) {}

  /**
   * A page as the server answered it. Throws past the bound, which ends the SDK's walk before it
   * asks for the next page. `cursor`: the one the page was asked with.
   */
  take(page: unknown, cursor: unknown): void {
    if (typeof page !== 'object' || page === null) return;
    const { key, what } = ITEMS[this.method];
    const items = (page as Record<string, unknown>)[key];
    if (!Array.isArray(items)) return;
    const next = (page as { nextCursor?: unknown }).nextCursor;
    // The SDK's walk ends, without adding it, at a page that repeats the previous one under the
    // same cursor (Client._walkPages): such a page is not counted either.
    const previous = this.previous;
    this.previous = items;
    if (
      cursor !== undefined &&
      next === cursor &&
      previous !== undefined &&
      JSON.stringify(items) === JSON.stringify(previous)
    )
      return;
    this.pages++;
    const total = this.taken + items.length;
    if (total <= this.limit) {
      this.taken = total;
      if (this.cut) for (const item of items) this.kept.push(item);
      if (next === undefined || this.pages < MAX_LIST_PAGES) return;
      const endless = `the server's ${what} did not end within ${MAX_LIST_PAGES} pages`;
      if (!this.cut)
        throw new ListLimitError(
          `${endless}; Airlock reads at most ${MAX_LIST_PAGES} pages of a list`,
        );
      throw new ListCutError(`${endless}; Airlock lists the ${this.taken} in them`, this.kept);
    }
    const counted =
      next === undefined
        ? `${total} ${what}`
        : `more than ${this.limit} ${what} (${total} in its first ${this.pages} page${this.pages === 1 ? '' : 's'})`;
    if (!this.cut)
      throw new ListLimitError(
        `the server lists ${counted}; Airlock takes at most ${this.limit} from one server`,
      );
    for (const item of items.slice(0, this.limit - this.taken)) this.kept.push(item);
    throw new ListCutError(
      `the server lists ${counted}; Airlock lists the first ${this.limit}`,
      this.kept,
    );
  }
}

/** The budget a request's options carry for this method, if any. */
export function budgetOf(method: string, options: unknown): ListBudget | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const budget = (options as { [LIST_BUDGET]?: unknown })[LIST_BUDGET];
  return budget instanceof ListBudget && budget.method === method ? budget : undefined;
}

/** Request options for one list walk, bounded by `budget` page by page. */
export function budgeted<T extends object>(options: T, budget: ListBudget): T {
  return { ...options, [LIST_BUDGET]: budget };
}
