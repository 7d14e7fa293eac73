import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrivalName } from '../../../src/pipeline/story-text/arrival-name.js';
import type { OutlineSection, PageOutline } from '../../../src/pipeline/types.js';

/**
 * Issue 56: a flow that goes on to another page names that page in its chapters and its title by the page's own
 * name, not by the site's: "Sign in", "Browser Support", or the heading the page opens on when every page of the
 * site carries the same title.
 */

const hero = (heading: string): OutlineSection => ({
  id: 'top', kind: 'hero', heading, text: '', label: heading, selector: '#top', fallbackSelectors: [],
  rect: { x: 0, y: 0, width: 1440, height: 600 }, headingRect: { x: 320, y: 200, width: 800, height: 56 },
});

const page = (title: string, heading: string | null): PageOutline => ({
  url: 'http://localhost/site/', title, description: null, viewport: { width: 1440, height: 810 }, documentHeight: 2000,
  stickyHeaderHeight: 0, navigation: [], sections: heading ? [hero(heading)] : [], actions: [], forms: [], media: [], dismissedOverlays: [],
});

describe('what a page a flow arrives on is called', () => {
  const home = page('Northwind Studio — Plan shoots with your whole crew', 'Plan every shoot with your whole crew');

  it("is the page's own part of its title, the site's name taken off", () => {
    assert.equal(arrivalName(page('Sign in — Northwind Studio', 'Welcome back'), home, null), 'Sign in');
    assert.equal(arrivalName(page('Browser Support | AdminLTE 4', 'Browsers'), page('AdminLTE 4 | Dashboard', 'Dashboard'), null), 'Browser Support');
  });

  it('is the heading the page opens on when every page has the same title', () => {
    const gym = page('GymFit| Fitness template', 'Build your body');
    assert.equal(arrivalName(page('GymFit| Fitness template', 'Our Trainer'), gym, null), 'Our Trainer');
  });

  it("is the heading when the title does not carry the site's name, or says more than a name", () => {
    assert.equal(arrivalName(page('Avatars - Kaiadmin Bootstrap 5 Admin Dashboard', 'Avatars'), page('Kaiadmin - Bootstrap 5 Admin Dashboard', 'Dashboard'), null), 'Avatars');
    assert.equal(arrivalName(page('Pricing', 'Simple plans for every crew'), home, null), 'Simple plans for every crew');
    assert.equal(arrivalName(page('Northwind Studio — Everything you need to know before your first shoot with us', 'FAQ'), home, null), 'FAQ');
  });

  it('is nothing when neither the title nor a heading names the page', () => {
    assert.equal(arrivalName(page('Northwind Studio — Plan shoots with your whole crew', null), home, null), null);
  });
});
