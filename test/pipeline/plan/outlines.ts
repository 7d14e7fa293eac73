import type { OutlineAction, OutlineField, OutlineSection, PageOutline, Rect, SectionKind } from '../../../src/pipeline/types.js';
import { promptSubjects } from '../../../src/pipeline/plan/section-meaning.js';

/**
 * Hand-built page outlines, as the analyser would report them: a SaaS landing page, a documentation page, a form
 * app, a one-screen page with only a hero, and a blank page.
 */

const rect = (x: number, y: number, width: number, height: number): Rect => ({ x, y, width, height });

function section(id: string, kind: SectionKind, heading: string | null, y: number, height: number, text = '', width = 1440): OutlineSection {
  return { id, kind, heading, text, label: heading ?? kind, selector: `#${id}`, fallbackSelectors: [`section:has(> #${id})`], rect: rect(0, y, width, height) };
}

function action(label: string, kind: OutlineAction['kind'], href: string | null, r: Rect, selector: string): OutlineAction {
  return { label, kind, href, selector, fallbackSelectors: [`text/${label}`], rect: r };
}

function field(label: string, type: string, name: string | null, r: Rect): OutlineField {
  return { label, type, name, selector: `[name="${name ?? label}"]`, fallbackSelectors: [`[aria-label="${label}"]`], rect: r };
}

export function saasOutline(): PageOutline {
  const signupSubmit = action('Start free trial', 'button', null, rect(900, 5130, 200, 48), '#signup button[type=submit]');
  return {
    url: 'http://localhost:4000/saas/',
    title: 'Reelio: product demos in minutes',
    description: 'Turn any product page into a polished demo video.',
    viewport: { width: 1440, height: 900 },
    documentHeight: 5620,
    stickyHeaderHeight: 72,
    navigation: [
      action('Features', 'nav-link', '#features', rect(600, 20, 80, 32), 'header a[href="#features"]'),
      action('Integrations', 'nav-link', '#integrations', rect(700, 20, 110, 32), 'header a[href="#integrations"]'),
      action('Pricing', 'nav-link', '#pricing', rect(830, 20, 70, 32), 'header a[href="#pricing"]'),
      action('Customers', 'nav-link', '#testimonials', rect(920, 20, 100, 32), 'header a[href="#testimonials"]'),
      action('Sign in', 'nav-link', '/login', rect(1240, 20, 80, 32), 'header a[href="/login"]'),
    ],
    sections: [
      section('hero', 'hero', 'Ship product demos in minutes', 0, 820, 'Turn any product page into a polished demo video. Get started free.'),
      section('logos', 'logos', 'Trusted by 2,000 teams', 820, 200, 'Acme Globex Initech Umbrella Hooli'),
      section('features', 'features', 'Features', 1020, 900, 'Auto-planning. Cinematic cursor. Share anywhere.'),
      section('integrations', 'content', 'Integrations', 1920, 700, 'Works with Slack, Notion, GitHub and 40 more tools.'),
      section('testimonials', 'testimonials', 'What customers say', 2620, 700, '"We cut demo production from days to minutes." — Grace H.'),
      section('pricing', 'pricing', 'Simple pricing', 3320, 1000, 'Starter $0 per month. Pro $29 per month, most popular. Enterprise: talk to us.'),
      section('faq', 'faq', 'FAQ', 4320, 600, 'Can I cancel anytime? Yes.'),
      section('signup', 'cta', 'Start your free trial', 4920, 400, 'No credit card required.'),
      section('footer', 'footer', null, 5320, 300, 'Features Pricing Integrations Blog Careers'),
    ],
    actions: [
      action('Get started', 'primary-cta', '/signup', rect(560, 520, 160, 52), '#hero a.cta-primary'),
      action('Watch the video', 'button', null, rect(740, 520, 180, 52), '#hero button.play'),
      action('Browse integrations', 'cta', '/integrations', rect(620, 2450, 200, 44), '#integrations a.more'),
      action('Start free', 'cta', '/signup?plan=starter', rect(240, 3980, 200, 48), '#pricing .tier:nth-child(1) a'),
      action('Start Pro trial', 'cta', '/signup?plan=pro', rect(620, 3980, 200, 48), '#pricing .tier:nth-child(2) a'),
      action('Contact sales', 'cta', '/contact', rect(1000, 3980, 200, 48), '#pricing .tier:nth-child(3) a'),
      signupSubmit,
    ],
    forms: [
      {
        label: 'Start your free trial',
        selector: '#signup form',
        fallbackSelectors: ['form'],
        rect: rect(420, 5020, 700, 180),
        fields: [
          field('Full name', 'text', 'name', rect(420, 5060, 320, 48)),
          field('Work email', 'email', 'email', rect(760, 5060, 320, 48)),
        ],
        submit: signupSubmit,
      },
    ],
    media: [
      { kind: 'image', selector: '#hero img.screenshot', rect: rect(320, 620, 800, 180) },
      { kind: 'image', selector: '#features .card:nth-child(1) img', rect: rect(160, 1200, 64, 64) },
      { kind: 'image', selector: '#features .card:nth-child(2) img', rect: rect(660, 1200, 64, 64) },
      { kind: 'image', selector: '#features .card:nth-child(3) img', rect: rect(1160, 1200, 64, 64) },
      { kind: 'image', selector: '#testimonials .quote:nth-child(1) img', rect: rect(200, 2800, 56, 56) },
      { kind: 'image', selector: '#testimonials .quote:nth-child(2) img', rect: rect(700, 2800, 56, 56) },
      { kind: 'image', selector: '#testimonials .quote:nth-child(3) img', rect: rect(1200, 2800, 56, 56) },
    ],
    dismissedOverlays: ['#cookie-banner'],
  };
}

export function docsOutline(): PageOutline {
  return {
    url: 'http://localhost:4000/docs/',
    title: 'Acme SDK documentation',
    description: null,
    viewport: { width: 1280, height: 800 },
    documentHeight: 4400,
    stickyHeaderHeight: 0,
    navigation: [
      action('Installation', 'nav-link', '#installation', rect(400, 16, 100, 28), 'nav a[href="#installation"]'),
      action('Configuration', 'nav-link', '#configuration', rect(520, 16, 120, 28), 'nav a[href="#configuration"]'),
      action('API reference', 'nav-link', '#api', rect(660, 16, 120, 28), 'nav a[href="#api"]'),
      action('GitHub', 'nav-link', 'https://github.com/acme/sdk', rect(1100, 16, 80, 28), 'nav a.github'),
    ],
    sections: [
      section('intro', 'hero', 'Acme SDK documentation', 0, 500, 'Everything you need to integrate Acme.', 1280),
      section('installation', 'content', 'Installation', 500, 700, 'npm install @acme/sdk', 1280),
      section('configuration', 'content', 'Configuration', 1200, 900, 'Set ACME_KEY and create a client.', 1280),
      section('api', 'content', 'API reference', 2100, 1500, 'client.send(), client.list(), client.delete()', 1280),
      section('faq', 'faq', 'FAQ', 3600, 600, 'Which Node versions are supported?', 1280),
      section('footer', 'footer', null, 4200, 200, '© Acme', 1280),
    ],
    actions: [
      action('Read the quickstart', 'cta', '#installation', rect(540, 360, 200, 44), '#intro a.quickstart'),
      action('Copy', 'button', null, rect(1100, 640, 60, 28), '#installation button.copy'),
    ],
    forms: [],
    media: [],
    dismissedOverlays: [],
  };
}

export function formAppOutline(): PageOutline {
  const submit = action('Send request', 'button', null, rect(560, 1960, 200, 48), '#contact button[type=submit]');
  return {
    url: 'http://localhost:4000/clinic/',
    title: 'Clinicly: book a consultation',
    description: 'Book a consultation with a specialist.',
    viewport: { width: 1440, height: 900 },
    documentHeight: 2400,
    stickyHeaderHeight: 64,
    navigation: [
      action('Home', 'nav-link', '#top', rect(900, 16, 60, 32), 'header a[href="#top"]'),
      action('Contact', 'nav-link', '#contact', rect(980, 16, 80, 32), 'header a[href="#contact"]'),
    ],
    sections: [
      section('top', 'hero', 'Book a consultation', 0, 700, 'Specialists in 48 hours.'),
      section('why', 'features', 'Why Clinicly', 700, 600, 'Fast. Private. Covered by insurance.'),
      section('contact', 'form', 'Request an appointment', 1300, 800, 'Tell us what you need.'),
      section('footer', 'footer', null, 2100, 300, '© Clinicly'),
    ],
    actions: [action('Book now', 'primary-cta', '#contact', rect(620, 420, 200, 52), '#top a.book'), submit],
    forms: [
      {
        label: 'Request an appointment',
        selector: '#contact form',
        fallbackSelectors: ['form'],
        rect: rect(400, 1400, 640, 620),
        fields: [
          field('First name', 'text', 'first_name', rect(400, 1420, 300, 48)),
          field('Last name', 'text', 'last_name', rect(740, 1420, 300, 48)),
          field('Email', 'email', 'email', rect(400, 1500, 640, 48)),
          field('Phone', 'tel', 'phone', rect(400, 1580, 640, 48)),
          field('Preferred date', 'date', 'date', rect(400, 1660, 640, 48)),
          field('Message', 'textarea', 'message', rect(400, 1740, 640, 140)),
          field('I agree to the terms', 'checkbox', 'terms', rect(400, 1900, 20, 20)),
        ],
        submit,
      },
    ],
    media: [],
    dismissedOverlays: [],
  };
}

export function minimalOutline(): PageOutline {
  return {
    url: 'http://localhost:4000/minimal/',
    title: 'Hello',
    description: null,
    viewport: { width: 1280, height: 800 },
    documentHeight: 800,
    stickyHeaderHeight: 0,
    navigation: [],
    sections: [section('hero', 'hero', 'Hello, world', 0, 800, 'A tiny product.', 1280)],
    actions: [action('Join the waitlist', 'primary-cta', 'https://example.com/join', rect(540, 460, 200, 52), '#hero a')],
    forms: [],
    media: [],
    dismissedOverlays: [],
  };
}

/** Nothing recognisable at all: no sections, no actions. Plans must still not be empty. */
export function blankOutline(): PageOutline {
  return {
    url: 'http://localhost:4000/blank/',
    title: '',
    description: null,
    viewport: { width: 1280, height: 800 },
    documentHeight: 1600,
    stickyHeaderHeight: 0,
    navigation: [],
    sections: [],
    actions: [],
    forms: [],
    media: [],
    dismissedOverlays: [],
  };
}

export const allOutlines = { saas: saasOutline, docs: docsOutline, formApp: formAppOutline, minimal: minimalOutline, blank: blankOutline };

/** A section of a made-up page, 600 px tall at `y` (the blind batches' meaning tests build their pages from these). */
export function madeUpSection(id: string, kind: SectionKind, heading: string, y: number, text: string, more: Partial<OutlineSection> = {}): OutlineSection {
  return { id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 600 }, ...more };
}

/** A made-up menu link to another page of the site, at the top of the page. */
export function madeUpLink(label: string, href: string): OutlineAction {
  return { label, kind: 'nav-link', href, selector: `a[href="${href}"]`, fallbackSelectors: [], rect: { x: 600, y: 20, width: 80, height: 30 } };
}

/** A made-up page of those sections, 1440×810, with nothing else on it. */
export function madeUpPage(sections: OutlineSection[], url = 'http://localhost/p/', title = 'P'): PageOutline {
  return {
    url, title, description: null, viewport: { width: 1440, height: 810 }, documentHeight: 8000,
    stickyHeaderHeight: 0, navigation: [], sections, actions: [], forms: [], media: [], dismissedOverlays: [],
  };
}

/** The ids of the sections a prompt asks for on a page, in the order a demo shows them. */
export const subjectIdsOn = (outline: PageOutline) => (prompt: string): string[] => promptSubjects(prompt, outline).subjects.map((s) => s.section.id);
