import { html, type SafeHtml } from '../../pages/html.js';

/** What went wrong and what to do next, for a status the API answered. */
export function errorPage(status: number, message: string): SafeHtml {
  const next =
    status === 404
      ? html`It may have been deleted, or it belongs to another account. <a href="/app/">Back to your demos</a>.`
      : status === 429
        ? html`Wait a minute, then try again. Your credits and limits are on <a href="/app/usage">Usage</a>.`
        : status === 402
          ? html`Buy a pack on <a href="/app/credits">Credits</a>, then try again.`
          : html`Go back, correct the form and try again, or return to <a href="/app/">your demos</a>.`;
  return html`<section class="panel empty" role="alert">
<h1>${status === 404 ? 'Not found' : 'That did not work'}</h1>
<p class="error">${message}</p>
<p>${next}</p>
</section>`;
}
