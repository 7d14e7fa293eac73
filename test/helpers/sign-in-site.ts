import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small app behind a sign-in, on 127.0.0.1 (issue 56): `/app` answers 302 to `/login` without a session cookie,
 * and shows an invoices screen with one. Its sign-in pages:
 * - `/login`: one form (email, password, "Sign in"); a right POST sets the `sid` cookie and redirects to /app, a
 *   wrong one shows the form again with an error (200), or answers 401 when the server was started with
 *   `wrongAnswer: 401`;
 * - `/login/two-step`: the email on one page, the password on the next;
 * - `/login/odd`: fields no heuristic can name (`#f1`, `#f2`, a `<div>` to click), for given selectors.
 */
export interface SignInSite {
  origin: string;
  appUrl: string;
  /** a session the app accepts, as a cookie value (cookies exported from a signed-in browser) */
  issueSession(): string;
  /** every sign-in POST the app received, as decoded form fields */
  posts: Array<Record<string, string>>;
  close(): Promise<void>;
}

export const SITE_USER = 'dana@example.com';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:0;color:#1d2433}header{background:#1d2433;color:#fff;padding:16px 40px}
main{max-width:900px;margin:0 auto;padding:40px}section{min-height:70vh;padding:24px 0}input,button{font:inherit;display:block;margin:8px 0 16px;padding:8px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccd;padding:10px;text-align:left}</style></head>
<body>${body}</body></html>`;

const loginForm = (error: string | null, action = '/login') =>
  page(
    'Sign in — Ledgerly',
    `<main><h1>Sign in to Ledgerly</h1>${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="${action}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username">
<label for="pw">Password</label><input id="pw" name="password" type="password" autocomplete="current-password">
<label><input type="checkbox" name="remember"> Remember me</label>
<button>Sign in</button></form>
<form action="/search"><label>Search the help<input name="q" type="search"></label></form></main>`,
  );

const appPage = page(
  'Invoices — Ledgerly',
  `<header><strong>Ledgerly</strong> · Signed in as ${SITE_USER}</header><main>
<section id="invoices"><h1>Invoices</h1><p>Every invoice you sent this quarter, with its status.</p>
<table><tr><th>Number</th><th>Customer</th><th>Amount</th><th>Status</th></tr>
<tr><td>INV-1042</td><td>Northwind</td><td>€1,200.00</td><td>Paid</td></tr>
<tr><td>INV-1043</td><td>Contoso</td><td>€860.00</td><td>Overdue</td></tr>
<tr><td>INV-1044</td><td>Fabrikam</td><td>€2,450.00</td><td>Sent</td></tr></table></section>
<section id="reports"><h2>Reports</h2><p>Revenue by month and by customer, ready to export.</p></section></main>`,
);

export async function startSignInSite(options: { password: string; wrongAnswer?: 200 | 401 }): Promise<SignInSite> {
  const sessions = new Set<string>();
  const posts: Array<Record<string, string>> = [];
  const issueSession = () => {
    const sid = randomBytes(12).toString('hex');
    sessions.add(sid);
    return sid;
  };
  const signedIn = (request: http.IncomingMessage) => {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    return sid !== undefined && sessions.has(sid);
  };
  const readForm = async (request: http.IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return Object.fromEntries(new URLSearchParams(text));
  };
  const html = (response: http.ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
  const redirect = (response: http.ServerResponse, location: string, cookie?: string) => {
    response.writeHead(302, { location, ...(cookie ? { 'set-cookie': `sid=${cookie}; Path=/; HttpOnly; SameSite=Lax` } : {}) });
    response.end();
  };
  const wrong = (response: http.ServerResponse, body: string) => html(response, options.wrongAnswer ?? 200, body);

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/favicon.ico') return html(response, 404, '');
      if (url.pathname.startsWith('/app')) return signedIn(request) ? html(response, 200, appPage) : redirect(response, '/login?next=/app');
      if (url.pathname === '/login' && request.method === 'GET') return html(response, 200, loginForm(null));
      if (url.pathname === '/login' && request.method === 'POST') {
        const form = await readForm(request);
        posts.push(form);
        if (form.email === SITE_USER && form.password === options.password) return redirect(response, '/app', issueSession());
        return wrong(response, loginForm('Wrong email or password.'));
      }
      if (url.pathname === '/login/two-step' && request.method === 'GET') {
        return html(response, 200, page('Sign in', `<main><h1>Sign in</h1><form method="post" action="/login/two-step"><label for="e">Email address</label><input id="e" name="email" type="email"><button>Next</button></form></main>`));
      }
      if (url.pathname === '/login/two-step' && request.method === 'POST') {
        const form = await readForm(request);
        posts.push(form);
        return html(response, 200, page('Sign in', `<main><h1>Welcome ${form.email ?? ''}</h1><form method="post" action="/login"><input type="hidden" name="email" value="${form.email ?? ''}"><label for="p">Password</label><input id="p" name="password" type="password"><button>Sign in</button></form></main>`));
      }
      if (url.pathname === '/login/odd' && request.method === 'GET') {
        return html(response, 200, page('Sign in', `<main><h1>Who are you?</h1><form id="odd" method="post" action="/login"><input id="f1" name="email"><input id="f2" name="password" type="text"></form>
<div id="go" role="link" onclick="document.getElementById('odd').submit()">Onwards</div></main>`));
      }
      return html(response, 404, page('Not found', '<h1>Not found</h1>'));
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    appUrl: `${origin}/app`,
    issueSession,
    posts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
