import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/** Every bound of the demo create body and of the Presentation object answers 400 naming the field. */
describe('demo input bounds', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 1000 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Bounds', url: 'https://bounds.example' } })).body.id;
  });
  after(() => app.stop());

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['missing project_id', { project_id: undefined }, /project_id is required/],
    ['empty project_id', { project_id: '' }, /^project_id cannot be blank\.$/],
    ['missing prompt', { prompt: undefined }, /prompt is required/],
    ['empty prompt', { prompt: '' }, /^The prompt is required\.$/],
    ['blank prompt', { prompt: ' \n\t ' }, /^The prompt is required\.$/],
    ['prompt over 500', { prompt: 'p'.repeat(501) }, /prompt must be at most 500/],
    ['format', { format: 'avi' }, /format must be one of: mp4, webm/],
    ['resolution', { resolution: '4k' }, /resolution must be one of: 720p, 1080p/],
    ['duration_target', { duration_target: '60s' }, /duration_target must be one of: 5s, 10s, 30s/],
    ['mode', { mode: 'magic' }, /mode must be one of: script, agent/],
    ['presentation not an object', { presentation: 'pretty' }, /presentation must be an object/],
    ['mockup', { presentation: { mockup: 'windows-xp' } }, /presentation\.mockup must be one of/],
    ['zoom without enabled', { presentation: { zoom: { intensity: 2 } } }, /presentation\.zoom\.enabled is required/],
    ['zoom intensity', { presentation: { zoom: { enabled: true, intensity: 3.5 } } }, /presentation\.zoom\.intensity must be at most 3/],
    ['zoom transition', { presentation: { zoom: { enabled: true, transitionMs: 50 } } }, /presentation\.zoom\.transitionMs must be at least 100/],
    ['padding', { presentation: { padding: 0.31 } }, /presentation\.padding must be at most 0\.3/],
    ['cursor style', { presentation: { cursor: { style: 'hand' } } }, /presentation\.cursor\.style must be one of/],
    ['cursor size', { presentation: { cursor: { size: 65 } } }, /presentation\.cursor\.size must be at most 64/],
    ['cursor color', { presentation: { cursor: { color: 'c'.repeat(51) } } }, /presentation\.cursor\.color must be at most 50/],
    ['click scale', { presentation: { clickEffect: { scale: 0.1 } } }, /presentation\.clickEffect\.scale must be at least 0\.2/],
    ['click style', { presentation: { clickEffect: { style: 'boom' } } }, /presentation\.clickEffect\.style must be one of/],
    ['fade in', { presentation: { fade: { inMs: 3001 } } }, /presentation\.fade\.inMs must be at most 3000/],
    ['fade colour', { presentation: { fade: { color: 'red' } } }, /presentation\.fade\.color must be one of: black, white/],
    ['window intro duration', { presentation: { windowAnimation: { introDurationMs: 100 } } }, /introDurationMs must be at least 200/],
    ['background image url length', { presentation: { background: { imageUrl: `https://x.example/${'a'.repeat(2048)}` } } }, /presentation\.background/],
    ['background gradient without to', { presentation: { background: { from: '#000' } } }, /presentation\.background/],
    ['template id', { presentation: { recordingTemplate: { id: 'tiktok' } } }, /presentation\.recordingTemplate\.id must be one of/],
    ['section hint', { presentation: { recordingTemplate: { id: 'section-focus', sectionHint: 's'.repeat(121) } } }, /sectionHint must be at most 120/],
    ['confidence', { presentation: { recordingTemplate: { id: 'auto', autoSelection: { selectedId: 'cinematic', confidence: 1.2, reason: 'r', source: 'heuristic' } } } }, /confidence must be at most 1/],
    ['reason', { presentation: { recordingTemplate: { id: 'auto', autoSelection: { selectedId: 'cinematic', confidence: 1, reason: '', source: 'heuristic' } } } }, /presentation.recordingTemplate.autoSelection.reason cannot be blank/],
    ['signals count', { presentation: { recordingTemplate: { id: 'auto', autoSelection: { selectedId: 'cinematic', confidence: 1, reason: 'r', source: 'ai', signals: Array(9).fill('s') } } } }, /signals must be at most 8 items/],
    ['signal length', { presentation: { recordingTemplate: { id: 'auto', autoSelection: { selectedId: 'cinematic', confidence: 1, reason: 'r', source: 'ai', signals: ['s'.repeat(241)] } } } }, /signals\.0 must be at most 240/],
    ['autoSelection source', { presentation: { recordingTemplate: { id: 'auto', autoSelection: { selectedId: 'cinematic', confidence: 1, reason: 'r', source: 'magic' } } } }, /source must be one of: heuristic, ai, fallback/],
    ['debugHud', { presentation: { debugHud: 'yes' } }, /presentation\.debugHud must be a boolean/],
    ['background not a colour', { presentation: { background: 'blurple' } }, /presentation\.background must be a CSS colour: a name such as "navy"/],
    ['gradient end not a colour', { presentation: { background: { from: '#4f46e5', to: 'rgb(1, 2)' } } }, /presentation\.background\.to must be a CSS colour/],
    ['cursor colour that would break out of CSS', { presentation: { cursor: { color: 'red;} body{display:none' } } }, /presentation\.cursor\.color must be a CSS colour/],
    ['click colour of five hex digits', { presentation: { clickEffect: { color: '#12345' } } }, /presentation\.clickEffect\.color must be a CSS colour/],
  ];

  for (const [label, override, message] of bad) {
    it(label, async () => {
      const body = { project_id: projectId, prompt: 'Show the product', ...override };
      const response = await app.api('/api/v1/demos', { key: user.key, body });
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(Object.keys(response.body), ['error']);
      assert.match(response.body.error, message);
    });
  }

  it('accepts a full presentation at its bounds and stores it JSON-encoded', async () => {
    const presentation = {
      background: { from: '#0f172a', to: '#6366f1', angle: 135 },
      mockup: 'macos-light',
      zoom: { enabled: true, intensity: 3, transitionMs: 2000 },
      padding: 0.3,
      cursor: { style: 'arrow', color: '#ffffff', size: 64 },
      clickEffect: { style: 'ripple', color: '#6366f1', scale: 3 },
      fade: { inMs: 0, outMs: 3000, color: 'white' },
      windowAnimation: { intro: true, outro: true, introDurationMs: 200, outroDurationMs: 2000 },
      recordingTemplate: {
        id: 'auto',
        sectionHint: 'Pricing',
        effectiveId: 'pricing-focus',
        autoSelection: { selectedId: 'pricing-focus', sectionHint: 'Pricing', confidence: 0, reason: 'r', source: 'fallback', signals: Array(8).fill('s'.repeat(240)) },
      },
      debugHud: true,
    };
    const response = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'p'.repeat(500), presentation, format: 'webm', resolution: '720p', duration_target: '5s', mode: 'agent' } });
    assert.equal(response.status, 202, response.text);
    const demo = (await app.api(`/api/v1/demos/${response.body.id}`, { key: user.key })).body;
    assert.deepEqual(JSON.parse(demo.presentation), presentation);
    assert.equal(demo.format, 'webm');
    assert.equal(demo.resolution, '720p');
  });

  it('accepts every colour syntax CSS does: names in any case, #hex of 3, 4, 6 or 8 digits, colour functions', async () => {
    const colours = ['Navy', 'rebeccapurple', 'transparent', '#abc', '#abcd', '#112233', '#11223380', 'rgb(79 70 229 / 50%)', 'rgba(0, 0, 0, 0.4)', 'hsl(240deg 100% 50%)', 'oklch(0.6 0.2 270)'];
    for (const colour of colours) {
      const presentation = { background: colour, cursor: { color: colour }, clickEffect: { color: colour } };
      const response = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'x', presentation } });
      assert.equal(response.status, 202, `${colour}: ${response.text}`);
    }
  });

  it('checks the colours of a restyle too, before anything is queued', async () => {
    const created = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'x' } });
    const response = await app.api(`/api/v1/demos/${created.body.id}/restyle`, { key: user.key, body: { presentation: { background: { from: 'sunset', to: '#000' } } } });
    assert.equal(response.status, 400, response.text);
    assert.match(response.body.error, /presentation\.background\.from must be a CSS colour/);
  });

  it('accepts a solid colour and an image background', async () => {
    for (const background of ['#112233', { imageUrl: 'https://images.example/bg.png' }]) {
      const response = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'x', presentation: { background } } });
      assert.equal(response.status, 202, response.text);
    }
  });
});
