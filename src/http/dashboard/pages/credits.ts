import { MAX_TOPOFF_THRESHOLD } from '../../../credits/index.js';
import { toErrorResponse } from '../../errors.js';
import { html, truncateText, type SafeHtml } from '../../pages/html.js';
import { appPage, csrfField, errorBox, formatDate, noticeBox, option } from '../layout.js';
import type { DashboardRequest, Route } from '../request.js';
import { redirect } from '../send.js';

/** Credits (balance, packs and buying, auto top-off, the history a page at a time) and usage (plan, this month). */

const money = (dollars: number) => `$${dollars.toFixed(2)}`;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A transaction's description with each demo id in it ("Demo generate (<uuid>)") a link to that demo's page, named
 * by its title (issue 35: the ids were bare text). Only demos in `names`, the viewer's own; everything escaped.
 */
export function withDemoLinks(description: string, names: ReadonlyMap<string, string>): SafeHtml {
  const parts: Array<string | SafeHtml> = [];
  let at = 0;
  for (const match of description.matchAll(UUID)) {
    const name = names.get(match[0].toLowerCase());
    if (name === undefined) continue;
    parts.push(description.slice(at, match.index), html`<a href="/app/demos/${match[0].toLowerCase()}" title="${match[0]}">${truncateText(name, 60)}</a>`);
    at = match.index + match[0].length;
  }
  parts.push(description.slice(at));
  return html`${parts}`;
}

async function creditsPage(r: DashboardRequest, status: number, error?: string) {
  const cursor = r.url.searchParams.get('cursor') ?? undefined;
  const [overview, page, { demos }] = await Promise.all([r.caller.credits.get(), r.caller.credits.transactions({ limit: 20, cursor }), r.caller.demos.list({})]);
  // The viewer's own demos only (the API lists no one else's): an id of a deleted demo stays plain text.
  const demoNames = new Map(demos.map((d) => [d.id, d.title ?? d.prompt]));
  const checkout = r.url.searchParams.get('checkout');
  const notice =
    checkout === 'paid' ? 'Thank you: the credits are added as soon as the payment is confirmed (usually within a minute).'
    : checkout === 'cancelled' ? 'The payment was cancelled; nothing was charged.'
    : r.url.searchParams.get('saved') ? 'Auto top-off saved.'
    : null;
  const auto = overview.autoTopoff;
  // SHOWREEL_PAYMENTS=none: no buy buttons nor auto top-off that could only be refused (issue 34); an auto top-off
  // left on from before can still be turned off.
  const sells = r.services.config.SHOWREEL_PAYMENTS !== 'none';
  const buyForms = html`<h2>Buy credits</h2>
<ul class="packs">${overview.packs.map((p) => html`<li class="pack${p.popular ? ' popular' : ''}">
<h3>${p.label}${p.popular ? html` <span class="badge ok">Popular</span>` : null}</h3>
<p class="big">${p.credits} <span class="muted small">credits</span></p>
<p>${money(p.price)} · ${money(p.perCredit)} each${p.savings > 0 ? html` · <strong>save ${p.savings}%</strong>` : null}</p>
<form method="post" action="/app/credits/purchase">${csrfField(r.viewer)}<input type="hidden" name="packId" value="${p.id}"><button type="submit">Buy ${p.credits}</button></form>
</li>`)}</ul>`;
  const topoffForm = html`<form method="post" action="/app/credits/auto-topoff" class="panel narrow" id="auto-topoff">
<h2>Auto top-off</h2>
<p class="muted">When a demo finds your balance below the threshold, the pack is bought first, so recordings never stop for lack of credits.</p>
${csrfField(r.viewer)}
<label class="check"><input type="checkbox" name="enabled"${auto.enabled ? html` checked` : null}> Top off automatically</label>
<div class="row">
<div><label for="t-pack">Pack</label><select id="t-pack" name="packId">${overview.packs.map((p) => option(p.id, `${p.credits} credits (${money(p.price)})`, p.id === auto.packId))}</select></div>
<div><label for="t-threshold">When the balance is below</label><input id="t-threshold" name="threshold" type="number" min="1" max="${String(MAX_TOPOFF_THRESHOLD)}" value="${String(auto.threshold)}"></div>
</div>
<div class="actions"><button type="submit">Save</button></div>
</form>`;
  const body = html`<h1>Credits</h1>
${noticeBox(notice)}
${errorBox(error ?? auto.disabledReason)}
<section class="panel balance"><p class="muted">Balance</p><p class="big" data-balance>${overview.balance}</p><p class="muted small">One credit makes or re-records one demo video.</p></section>
${sells ? buyForms : html`<h2>Buy credits</h2>
<p class="panel muted" data-no-payments>This service sells no credits: payments are not configured here. An administrator grants credits (<code>showreel admin grant-credits</code>).</p>`}
${sells || auto.enabled ? topoffForm : null}
<section><h2>History</h2>
${page.transactions.length === 0 ? html`<p class="panel empty">No transactions yet.</p>` : html`<div class="table-wrap"><table>
<thead><tr><th>When</th><th>What</th><th class="num">Amount</th><th class="num opt">Balance</th></tr></thead>
<tbody>${page.transactions.map((t) => html`<tr><td>${formatDate(t.created_at)}</td><td>${withDemoLinks(t.description ?? t.type, demoNames)}</td><td class="num ${t.amount < 0 ? 'neg' : 'pos'}">${t.amount > 0 ? '+' : ''}${t.amount}</td><td class="num opt">${t.balance_after}</td></tr>`)}</tbody>
</table></div>`}
<p class="pager">${cursor ? html`<a href="/app/credits">Newest</a>` : null}${page.nextCursor ? html` <a href="/app/credits?cursor=${encodeURIComponent(page.nextCursor)}">Older →</a>` : null}</p>
</section>`;
  r.page(status, appPage({ title: 'Credits', viewer: r.viewer, section: 'credits', body }));
}

/**
 * Usage's line about auto top-off, linking only to a control that exists (issue 57: "Auto top-off is off · change"
 * led to a Credits page without one when the service sells no credits). The Credits page shows the form when
 * payments are on, or when a top-off left on from before must still be turnable off.
 */
function topoffLine(auto: { enabled: boolean; threshold: number }, sells: boolean): SafeHtml {
  if (auto.enabled) return html`Auto top-off below ${auto.threshold} · <a href="/app/credits#auto-topoff">change</a>`;
  if (sells) return html`Auto top-off is off · <a href="/app/credits#auto-topoff">turn it on</a>`;
  return html`No auto top-off: this service sells no credits (an administrator grants them).`;
}

async function usagePage(r: DashboardRequest) {
  const u = await r.caller.usage.get();
  const limit = (n: number) => (n === 0 ? 'no limit' : `${n} a minute`);
  const body = html`<h1>Usage</h1>
<div class="stats">
<div class="panel stat"><p class="muted">Plan</p><p class="big">${u.plan.name}</p><p class="muted small">Uploads: ${u.plan.formats.join(', ').toUpperCase()} · ${u.plan.resolutions.join(', ')}</p></div>
<div class="panel stat"><p class="muted">Balance</p><p class="big">${u.balance}</p><p class="muted small" data-topoff>${topoffLine(u.autoTopoff, r.services.config.SHOWREEL_PAYMENTS !== 'none')}</p></div>
</div>
<section class="panel"><h2>This month</h2><p class="muted small">${formatDate(u.period.start)} to ${formatDate(u.period.end)}</p>
<div class="table-wrap"><table><tbody>
<tr><td>Demos generated</td><td class="num">${u.usage.demos_generated}</td></tr>
<tr><td>Refreshes</td><td class="num">${u.usage.refreshes}</td></tr>
<tr><td>Restyles</td><td class="num">${u.usage.restyles}</td></tr>
<tr><td>Uploads</td><td class="num">${u.usage.uploads}</td></tr>
<tr><td>Credits spent</td><td class="num">${u.usage.credits_spent}</td></tr>
</tbody></table></div></section>
<section class="panel"><h2>Limits</h2><p>Each key: ${limit(u.plan.limits.requests_per_minute_per_key)}; all your keys together: ${limit(u.plan.limits.requests_per_minute_per_user)}. Uploads up to ${Math.floor(u.plan.limits.max_upload_bytes / 1024 / 1024)} MB.</p></section>`;
  r.page(200, appPage({ title: 'Usage', viewer: r.viewer, section: 'usage', body }));
}

export const creditRoutes: Route[] = [
  { method: 'GET', pattern: /^\/app\/credits$/, handle: (r) => creditsPage(r, 200) },
  { method: 'GET', pattern: /^\/app\/usage$/, handle: usagePage },
  {
    method: 'POST',
    pattern: /^\/app\/credits\/purchase$/,
    async handle(r) {
      const form = await r.form();
      try {
        // The buyer pays on the payment service's page; its webhook adds the credits (issue 34).
        const checkout = await r.caller.credits.purchase({ packId: form.get('packId') ?? '' } as Parameters<typeof r.caller.credits.purchase>[0]);
        redirect(r.res, checkout.checkoutUrl);
      } catch (error) {
        const mapped = toErrorResponse(error);
        // 403: this service sells no credits (SHOWREEL_PAYMENTS=none); 503: the payment service is away.
        if (mapped.fault || ![400, 402, 403, 503].includes(mapped.status)) throw error;
        await creditsPage(r, mapped.status, mapped.body.error);
      }
    },
  },
  {
    method: 'POST',
    pattern: /^\/app\/credits\/auto-topoff$/,
    async handle(r) {
      const form = await r.form();
      const threshold = Number(form.get('threshold') ?? '');
      try {
        await r.caller.credits.setAutoTopoff({
          enabled: form.get('enabled') === 'on',
          packId: (form.get('packId') ?? undefined) as Parameters<typeof r.caller.credits.setAutoTopoff>[0]['packId'],
          threshold: Number.isFinite(threshold) && form.get('threshold') ? threshold : undefined,
        });
        redirect(r.res, '/app/credits?saved=1');
      } catch (error) {
        const mapped = toErrorResponse(error);
        // 403: no payments here; 409: no card saved yet (Stripe).
        if (mapped.fault || ![400, 403, 409].includes(mapped.status)) throw error;
        await creditsPage(r, mapped.status, mapped.body.error);
      }
    },
  },
];
