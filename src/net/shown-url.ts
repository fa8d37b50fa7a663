/**
 * A backend's URL as logs and banners may show it: scheme, host, port and path only. Credentials
 * (`user:password@`), a query and a fragment may hold secrets; a text that is no URL is not shown.
 */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
