import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { signInToDashboard, type DashboardSession } from '../../helpers/dashboard-session.js';
import { finishJob } from '../../helpers/pipeline.js';
import { publishVariantVersion } from '../../helpers/variant-demo.js';

/**
 * Issue 59, as a new user read the demo page: a version made by cutting a 9:16 from the kept recording said
 * "Restyle" under Versions, as if the demo had been recorded again, while the History beside it said "New cut
 * (9:16) from the same recording". Both now say what made it.
 */
describe('the Versions list says what made each version', () => {
  let app: TestApp;
  let ada: TestUser;
  let session: DashboardSession;

  before(async () => {
    app = await startTestApp();
    ada = await app.createUser({ email: 'ada@example.com', credits: 10 });
    session = await signInToDashboard(app, ada);
  });
  after(() => app.stop());

  /** Each row of the Versions table as the user reads it, newest first: version, state and "Made by". */
  const versionRows = (page: string) => {
    const panel = page.slice(page.indexOf('<h2>Versions</h2>'), page.indexOf('</table>', page.indexOf('<h2>Versions</h2>')));
    return [...panel.matchAll(/<tr data-version="\d+"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => {
      const cell = (label: string) => new RegExp(`<td data-label="${label}">([\\s\\S]*?)</td>`).exec(m[1]!)![1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
      return [cell('Version'), cell('Made by')];
    });
  };

  it('a cut made from the kept recording names the cut and the recording; a re-recorded restyle stays "Restyle"', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Quay', url: 'https://quay.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'A tour', duration_target: '10s' } })).body;
    const keepCapture = (version: number) => app.sql`update demos set capture_key = ${`demos/${demo.id}/v${version}/capture/`} where id = ${demo.id}`;
    const restyle = async (presentation: object) => {
      const response = await app.api(`/api/v1/demos/${demo.id}/restyle`, { key: ada.key, body: { presentation } });
      assert.equal(response.status, 202, JSON.stringify(response.body));
    };
    await keepCapture(await publishVariantVersion(app, demo.id, []));

    // v2: the 9:16 cut, from v1's kept recording; v3: the 9:16 cut taken away again, from v2's.
    await restyle({ aspect: ['16:9', '9:16'] });
    await keepCapture(await publishVariantVersion(app, demo.id, ['9:16'], { aspect: ['16:9', '9:16'] }));
    await restyle({ aspect: ['16:9'] });
    await publishVariantVersion(app, demo.id, [], { aspect: ['16:9'] });
    // v4: a new look with no recording kept is recorded again (and charged): a restyle, as before.
    await app.sql`update demos set capture_key = null where id = ${demo.id}`;
    await restyle({ mockup: 'macos-dark' });
    const [job] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${demo.id}`;
    await finishJob(app.sql, demo.id, job!.latest_job_id);

    const jobs = await app.sql<{ new_version: number; from_capture: boolean }[]>`select new_version, from_capture from demo_jobs where demo_id = ${demo.id} and kind = 'restyle' order by new_version`;
    assert.deepEqual(jobs.map((j) => [j.new_version, j.from_capture]), [[2, true], [3, true], [4, false]], 'two cut runs, then a recording');

    const page = await session.text(`/app/demos/${demo.id}`);
    assert.deepEqual(versionRows(page), [
      ['v4 Current', 'Restyle'],
      ['v3', 'Same recording as v2, 9:16 cut removed'],
      ['v2', 'New cut (9:16) from v1’s recording'],
      ['v1', 'First recording'],
    ]);
    // The History beside it tells the same runs in the same words.
    const history = page.slice(page.indexOf('<h2>History</h2>'));
    assert.match(history, /New cut \(9:16\) from the same recording · free/);
    assert.match(history, /9:16 cut removed, nothing recorded · free/);

    // The API says the same to a script: which versions were cut from whose recording.
    const listed = (await app.api(`/api/v1/demos/${demo.id}/versions`, { key: ada.key })).body.versions;
    assert.deepEqual(listed.map((v: { version: number; made_by: string; cut_from_version: number | null }) => [v.version, v.made_by, v.cut_from_version]), [
      [4, 'restyle', null],
      [3, 'restyle', 2],
      [2, 'restyle', 1],
      [1, 'generate', null],
    ]);
  });
});
