import { launchBrowser } from '../../src/pipeline/browser/launch.js';
import { namedValues } from '../../src/pipeline/plan/named-values.js';
import { flowExit } from '../../src/pipeline/plan/flow-exit.js';
import { answerElsewhere } from '../../src/pipeline/plan/linked-answer.js';
import { startsFlow } from '../../src/pipeline/plan/plan-leg.js';
import { startFixtureServer } from '../../test/helpers/fixture-server.js';
import { presentRealPages, realCases, realPagesDir } from './real-set.js';
import { analyseSite } from './score.js';
import { readLinkedPages } from '../../src/pipeline/analyse/linked-pages.js';

/**
 * Issue 56: the one-page real set's prompts that a flow would take off their page. Every case's target is on its
 * own page, so each one listed is a false flow (a link followed, or a form typed into, that the prompt did not ask
 * for). `node --import tsx scripts/eval-story/false-flows.ts`
 */
const { present } = presentRealPages();
const cases = realCases(present);
const server = await startFixtureServer({ root: realPagesDir() });
const browser = await launchBrowser({ allowPrivate: true });
let flows = 0;
try {
  for (const site of new Set(cases.map((c) => c.site))) {
    const url = server.url(site);
    const analysed = await analyseSite(browser, url).catch((error: unknown) => {
      console.log(`${site}: not analysed (${error instanceof Error ? error.message : String(error)}); its cases are not counted`);
      return null;
    });
    if (!analysed) continue;
    const sameSite = (candidate: string) => new URL(candidate, url).origin === new URL(url).origin;
    // What its menu's pages say, as a recording reads them (the pages a real-set folder holds beside its own).
    const reader = await browser.newPage();
    // The document is enough to read from: a page whose images or frames never finish loading is read all the same.
    const linked = await reader
      .goto(url, { waitUntil: 'domcontentloaded' })
      .then(() => readLinkedPages(reader, analysed.outline, sameSite))
      .finally(() => reader.close());
    for (const c of cases.filter((k) => k.site === site)) {
      if (!startsFlow(c.prompt, analysed.outline, namedValues(c.prompt), sameSite, linked)) continue;
      flows++;
      const exit = flowExit(c.prompt, analysed.outline, sameSite) ?? answerElsewhere(c.prompt, analysed.outline, sameSite, linked);
      console.log(`${site} ${JSON.stringify(c.prompt)} → ${exit ? `leaves by "${exit.link.label}" (${exit.link.href})` : 'types into a form'}`);
    }
  }
  console.log(`False flows: ${flows}/${cases.length} case(s) of the one-page real set`);
} finally {
  await browser.close();
  await server.close();
}
