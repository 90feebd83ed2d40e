/**
 * The user and password in a proxy variable (`HTTPS_PROXY` …), read as the tools a local server
 * runs read it, so the server list masks all of it and the log learns the password.
 *
 * - No scheme means `http://`: curl ("No protocol specified or http:// it is treated as an HTTP
 *   proxy", `man curl`, -x; checked: `-x bob:s3cret@host:port` sends Basic `bob:s3cret`), Python's
 *   `urllib.request._parse_proxy` and requests (`prepend_scheme_if_needed(proxy, 'http')`). So
 *   `bob:s3cret@proxy.corp:3128` carries the password `s3cret`, where WHATWG `URL` reads the
 *   scheme `bob:` and no password at all.
 * - The userinfo ends at the last '@' before the host: WHATWG URL's authority state, Python's
 *   `_parse_proxy` (`bob:p@ss@proxy` is `bob` / `p@ss`). curl takes the first '@' and then fails
 *   to resolve the host `ss@proxy`: masking to the last one hides the password either way.
 * - The authority ends at the first '/', '?' or '#' (RFC 3986 §3.2). A password holding one of
 *   those unescaped is misread by every tool; what is masked and learned then reaches the last '@'
 *   of the whole value as well, so that such a password is not shown either.
 * - The password is percent-decoded as the tools send it (RFC 3986 §2.1); both forms are secrets.
 */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export interface ProxyUserinfo {
  /** Where the userinfo starts (after `scheme://`, or 0) and the index of the '@' that ends it. */
  start: number;
  at: number;
  /** The passwords it may hold, raw and percent-decoded (none without a ':'). */
  passwords: string[];
}

export function proxyUserinfo(value: string): ProxyUserinfo | undefined {
  const start = SCHEME.exec(value)?.[0].length ?? 0;
  const at = value.lastIndexOf('@');
  if (at < start) return undefined;
  // WHATWG URL (undici, uv's url crate) first trims C0 controls and spaces and drops every tab
  // and newline (URL Standard, basic URL parser, steps 1–3); curl and Python do not.
  const whatwg = value.replace(/^[\0- ]+|[\0- ]+$/g, '').replace(/[\t\n\r]/g, '');
  const passwords = new Set([...passwordsIn(value), ...passwordsIn(whatwg)]);
  // And as WHATWG URL serialises it (`new URL(v).password`, what a Node or undici child prints):
  // `"`, `{`, `}` and others percent-encoded (URL Standard, userinfo percent-encode set).
  try {
    passwords.add(new URL(SCHEME.test(whatwg) ? whatwg : `http://${whatwg}`).password);
  } catch {
    // Not a URL to WHATWG: no child of that kind prints it.
  }
  passwords.delete('');
  return { start, at, passwords: [...passwords] };
}

/** The password up to the authority's last '@', and up to the value's last '@'; raw and decoded. */
function passwordsIn(value: string): string[] {
  const start = SCHEME.exec(value)?.[0].length ?? 0;
  const rest = value.slice(start);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const out: string[] = [];
  for (const end of [authority.lastIndexOf('@'), rest.lastIndexOf('@')]) {
    if (end < 0) continue;
    const userinfo = rest.slice(0, end);
    const colon = userinfo.indexOf(':');
    if (colon < 0) continue;
    const raw = userinfo.slice(colon + 1);
    out.push(raw, percentDecoded(raw));
  }
  return out;
}

/** `value` with its userinfo shown as `***` (the scheme, host and port kept). */
export function maskedProxy(value: string): string {
  const u = proxyUserinfo(value);
  return u ? `${value.slice(0, u.start)}***${value.slice(u.at)}` : value;
}

/** Percent-decoded as curl does: a '%' without two hex digits, or bytes that are not UTF-8, stay. */
function percentDecoded(s: string): string {
  return s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
