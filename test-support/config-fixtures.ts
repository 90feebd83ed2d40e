import fc from 'fast-check';

/**
 * Generated MCP-client config files (issue 28.4) for property tests of the
 * clients' editors: JSONC with LF or CRLF, a BOM or not, two/four spaces or
 * tabs, one-line and unfolded objects, trailing commas, and comments in every
 * place JSONC allows them (file start and end, after `{`, before `}`, above a
 * property, between key and colon, colon and value, before and after a comma);
 * TOML (Codex) with comments, blank lines, sub-tables, inline tables and
 * header-like lines inside multi-line strings. Every choice is drawn from
 * fast-check's `gen`, so a failure shrinks to a small file.
 */
export type Gen = fc.GeneratorValue;

export interface Style {
  eol: '\n' | '\r\n';
  unit: string;
  bom: boolean;
}

export const OLD_URL = 'http://127.0.0.1:47821/mcp';

const pick = <T>(g: Gen, xs: readonly T[]): T => g(fc.constantFrom, ...xs);
const chance = (g: Gen, p = 0.5) => g(fc.double, { min: 0, max: 1, noNaN: true }) < p;

export function style(g: Gen): Style {
  return {
    eol: pick(g, ['\n', '\r\n'] as const),
    unit: pick(g, ['  ', '    ', '\t']),
    bom: chance(g, 0.25),
  };
}

type J = { kind: 'obj'; props: [string, J][]; oneLine?: boolean } | { kind: 'lit'; text: string };

const lit = (v: unknown): J => ({ kind: 'lit', text: JSON.stringify(v) });

function server(g: Gen, name: string): [string, J] {
  const props: [string, J][] = chance(g)
    ? [
        ['command', lit(pick(g, ['npx', 'uvx', 'docker']))],
        ['args', lit(['-y', `${name}-mcp`])],
        ...(chance(g, 0.3) ? ([['env', obj([['TOKEN', lit('t0k')]], true)]] as [string, J][]) : []),
      ]
    : [
        ['url', lit(`https://${name.replace(/\W/g, '')}.example/mcp`)],
        ...(chance(g, 0.5)
          ? ([['headers', obj([['X-Key', lit('k')]], chance(g))]] as [string, J][])
          : []),
      ];
  return [name, obj(props, chance(g, 0.4))];
}

function obj(props: [string, J][], oneLine = false): J {
  return { kind: 'obj', props, oneLine };
}

/** A client's settings object holding `keyPath` to some depth, with the user's own servers (maybe an old "airlock"). */
export function jsonDoc(g: Gen, keyPath: string[]): { root: J; hasAirlock: boolean } {
  let hasAirlock = false;
  const depth = g(fc.integer, { min: 0, max: keyPath.length });
  let inner: J | null = null;
  if (depth === keyPath.length && depth > 0) {
    const names = g(fc.subarray, ['github', 'sentry.io', 'fs', 'my server']);
    const props = names.map((n) => server(g, n));
    if (chance(g, 0.4)) {
      hasAirlock = true;
      const at = g(fc.integer, { min: 0, max: props.length });
      props.splice(at, 0, ['airlock', obj([['url', lit(OLD_URL)]], chance(g))]);
    }
    inner = obj(props, props.length > 0 && chance(g, 0.15));
  }
  // `inner` is the value of keyPath[depth-1]; wrap it into the keys above it.
  if (depth > 0 && depth < keyPath.length) inner = obj(chance(g) ? [] : [['other', lit(1)]]);
  for (let i = depth - 1; i >= 1; i--) inner = obj([[keyPath[i]!, inner!]]);
  const others: [string, J][] = g(fc.subarray, [
    ['theme', lit('dark')] as [string, J],
    ['numStartups', lit(12)] as [string, J],
    ['editor.fontSize', lit(14)] as [string, J],
    ['flags', lit([true, null, 'x'])] as [string, J],
    [
      'nested',
      obj(
        [
          ['a', lit(1)],
          ['b', obj([])],
        ],
        chance(g),
      ),
    ] as [string, J],
  ]);
  if (depth > 0)
    others.splice(g(fc.integer, { min: 0, max: others.length }), 0, [keyPath[0]!, inner!]);
  return { root: obj(others), hasAirlock };
}

const LINE_COMMENTS = ['// note', '// "airlock": { "url": "x" }', '//'];
const BLOCK_COMMENTS = ['/* c */', '/**/', '/* a,\n b */'];

/** Prints `doc` with `s` and comments wherever JSONC allows them. */
export function printJson(g: Gen, doc: J, s: Style): string {
  const { eol, unit } = s;
  const block = () => pick(g, BLOCK_COMMENTS).replace(/\n/g, eol);
  const maybeBlock = (p = 0.15) => (chance(g, p) ? ` ${block()}` : '');
  const value = (j: J, level: number): string => {
    if (j.kind === 'lit') return j.text;
    const ind = unit.repeat(level);
    if (j.props.length === 0)
      return pick(g, ['{}', '{ }', `{${eol}${ind}}`, `{ ${block()} }`, `{ // none${eol}${ind}}`]);
    const trailing = chance(g, 0.3);
    if (j.oneLine) {
      const parts = j.props.map(
        ([k, v]) => `${JSON.stringify(k)}${maybeBlock()}:${maybeBlock()} ${value(v, level)}`,
      );
      return `{ ${parts.join(`,${maybeBlock()} `)}${trailing ? ',' : ''} }`;
    }
    const inner = unit.repeat(level + 1);
    let out = `{${chance(g, 0.2) ? ` ${chance(g) ? pick(g, LINE_COMMENTS) : block()}` : ''}${eol}`;
    j.props.forEach(([k, v], i) => {
      if (chance(g, 0.2)) out += `${inner}${chance(g) ? pick(g, LINE_COMMENTS) : block()}${eol}`;
      const comma = i < j.props.length - 1 || trailing ? ',' : '';
      const before = comma && chance(g, 0.1) ? ` ${block()}` : '';
      const after = chance(g, 0.25) ? ` ${chance(g) ? pick(g, LINE_COMMENTS) : block()}` : '';
      out += `${inner}${JSON.stringify(k)}${maybeBlock(0.05)}:${maybeBlock(0.05)} ${value(v, level + 1)}${before}${comma}${after}${eol}`;
    });
    if (chance(g, 0.15)) out += `${inner}${pick(g, LINE_COMMENTS)}${eol}`;
    return `${out}${ind}}`;
  };
  const head = chance(g, 0.3) ? `${pick(g, LINE_COMMENTS)}${eol}` : '';
  const tail = chance(g, 0.2) ? ` ${pick(g, LINE_COMMENTS)}` : '';
  const end = chance(g, 0.85) ? eol : '';
  return `${s.bom ? '\uFEFF' : ''}${head}${value(doc, 0)}${tail}${end}`;
}

/** A Codex config.toml in `s`'s line endings (indentation does not apply), maybe with an old airlock table. */
export function tomlDoc(g: Gen, s: Style): { text: string; hasAirlock: boolean } {
  const blocks: string[][] = [];
  if (chance(g)) blocks.push(['# Codex settings', 'model = "gpt-5"']);
  const servers = g(fc.subarray, ['docs', 'figma', 'my server']);
  for (const name of servers) {
    const key = /^\w+$/.test(name) ? name : JSON.stringify(name);
    const lines = [`[mcp_servers.${key}]${chance(g, 0.2) ? ' # trailing' : ''}`];
    if (chance(g, 0.3)) lines.push('# about it');
    lines.push(chance(g) ? 'command = "npx"' : 'url = "https://x.example/mcp"');
    if (chance(g, 0.3)) lines.push('notes = """', '[mcp_servers.fake]', 'not a header', '"""');
    if (chance(g, 0.3)) lines.push('http_headers = { "X-Key" = "k" }');
    blocks.push(lines);
    if (chance(g, 0.3)) blocks.push([`[mcp_servers.${key}.env]`, 'K = "v"']);
  }
  let hasAirlock = false;
  if (chance(g, 0.4)) {
    hasAirlock = true;
    const at = g(fc.integer, { min: 0, max: blocks.length });
    const table = ['[mcp_servers.airlock]', `url = "${OLD_URL}"`];
    if (chance(g, 0.3)) table.push('', '[mcp_servers.airlock.env]', 'X = "1"');
    blocks.splice(at, 0, table);
  }
  if (chance(g, 0.4)) blocks.push(['# profiles below', '[profiles.fast]', 'model = "gpt-5-mini"']);
  const sep = () => (chance(g, 0.7) ? [''] : chance(g) ? ['', ''] : []);
  const lines = blocks.flatMap((b, i) => (i === 0 ? b : [...sep(), ...b]));
  if (chance(g, 0.15)) lines.unshift('');
  const end = chance(g, 0.85) ? s.eol : '';
  const text = lines.length ? lines.join(s.eol) + end : '';
  return { text: `${s.bom ? '\uFEFF' : ''}${text}`, hasAirlock };
}
