/**
 * The data that flows between the pipeline stages, in order:
 *   analyse (page → PageOutline) → plan (outline + prompt → DemoPlan → ActionScript)
 *   → record (ActionScript → clean video frames + InteractionTimeline + RecordingLog) → compose/encode → store.
 * Coordinates are CSS pixels. `Rect`s in the outline and the script are document coordinates (scroll-independent);
 * the timeline's are viewport coordinates at that moment (what the compositor draws over the frame).
 */
import type { TemplateId } from '../demos/presentation.js';
import type { CaptionDrafts, StoryText } from './story-text/types.js';

export type ViewportName = 'desktop' | 'tablet' | 'mobile';
export type Resolution = '720p' | '1080p';
export type DurationTarget = '5s' | '10s' | '30s';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Something the recorder can find again: a primary selector, fallbacks, and where it was when planned. */
export interface Target {
  label: string;
  selector: string;
  fallbackSelectors: string[];
  rect: Rect;
}

export type SectionKind =
  | 'hero' | 'features' | 'pricing' | 'testimonials' | 'logos' | 'faq' | 'cta' | 'form' | 'media' | 'content' | 'footer';

export interface OutlineSection extends Target {
  id: string;
  kind: SectionKind;
  heading: string | null;
  /** The few words just above the heading that label the section ("PRICING", "Line-up"), when there are some. */
  kicker?: string;
  /**
   * A short heading right under its heading that names what it shows ("Discover Authentic English Flavours", then
   * "Diners Favorite"), when there is one: as much its name as an eyebrow is.
   */
  subtitle?: string;
  /**
   * The other headings of its own heading's level in it, when its heading is one of a row of equals (three service
   * boxes, each an h2: "QUALITY FOODS", "FASTEST DELIVERY", "ORIGINAL RECIPES"): the first is taken for its heading,
   * the others name it as much.
   */
  peerHeadings?: string[];
  /**
   * Its heading is only the first of a row of cards' equal small headings (h3 and below, side by side, no title over
   * them: a law firm's "Group of Lawyers", "No One is Above The Law", …): one card's title, not the section's.
   */
  cardHeading?: boolean;
  /** Where the section's heading is (document coordinates), when it has one. */
  headingRect?: Rect;
  /**
   * The widgets it holds, when any: a range slider, an accordion, tabs, a toggle switch, a carousel, a data table, a
   * form's fields (two or more to fill in, a <form> around them or not), a countdown's cells.
   */
  widgets?: Array<'slider' | 'accordion' | 'tabs' | 'toggle' | 'carousel' | 'table' | 'form' | 'countdown'>;
  /** The controls that change it in place (a tab, a question to open, the prices' period switch, a next arrow). */
  controls?: OutlineControl[];
  /** A short summary of the section's text (≤ 200 chars), for planners. */
  text: string;
  /**
   * All its words: its text (list items, button labels) as far as 1,500 characters, then up to 500 of the words a
   * visitor reads that are not rendered text: image alt texts (product names, logos), an input button's value, an icon button's aria-label. What the section meaning scores a prompt against; absent from
   * outlines made before it existed.
   */
  body?: string;
  /**
   * Issue 55: in a section taller than the screen, its parts with a heading of their own (a card, a step, an entry):
   * the heading, where it and its part's box are (document coordinates), the part's text (≤ 300 chars), and the
   * heading's selectors (what the cursor rests on).
   */
  parts?: Array<{ heading: string; headingRect: Rect; rect: Rect; text: string; selector: string; fallbackSelectors: string[]; flat?: true }>;
}

/** A control that changes its section in place, without leaving the page: what a demo clicks to show it working. */
export interface OutlineControl extends Target {
  kind: 'tab' | 'disclosure' | 'switch' | 'next-slide';
}

export interface OutlineAction extends Target {
  kind: 'primary-cta' | 'cta' | 'nav-link' | 'button';
  href: string | null;
  /**
   * Issue 56: a link hidden in a menu until this control opens it (a dropdown, a folded sidebar, a hamburger); `hover`
   * when resting the pointer on it opens the menu (a CSS dropdown under a link that leads elsewhere itself)
   */
  opener?: Target & { hover?: true };
  /** menus inside that menu, opened after it, outermost first (a sidebar's "Pages", then its "Authentication") */
  thenOpen?: Target[];
  /** the heading of the card the link sits in, when it is not the label ("Site Reliability Engineer" for "Apply Now") */
  context?: string;
}

export interface OutlineField extends Target {
  name: string | null;
  type: string;
  /** the page marks it required (a form filler types a made-up value into it when the prompt names none) */
  required?: boolean;
  /** a checkbox or radio button ticked when the page was read (absent when not, and in outlines made before it) */
  checked?: boolean;
  /** a text box that already holds words when the page was read (a profile's saved e-mail): a required one needs none made up */
  filled?: boolean;
  /** a <select>'s options as they read (at most 30; absent for other fields, and in outlines made before it) */
  options?: string[];
}

export interface OutlineForm extends Target {
  fields: OutlineField[];
  submit: OutlineAction | null;
  /** a <form>'s method, lower case ("get" when it names none); absent for a form made of other elements, and in outlines made before it */
  method?: string;
  /** the address a <form> sends to, when it names one; absent when it sends to its own page or by script */
  action?: string;
  /**
   * A form hidden until this control shows it (a tab's "Reviews (3)", a modal's "Add Row"); its rect and its fields'
   * are then where it will appear as far as the page tells before it opens (the tabs' panel, or the opener itself).
   */
  opener?: Target;
}

export interface PageOutline {
  url: string;
  title: string;
  description: string | null;
  viewport: { width: number; height: number };
  documentHeight: number;
  /** Height of a sticky/fixed header, so scroll targets land below it. */
  stickyHeaderHeight: number;
  /** Height of a bar fixed to the bottom edge (a ticket offer, a cart total), which hides what scrolls under it. */
  stickyFooterHeight?: number;
  navigation: OutlineAction[];
  /**
   * Issue 56: links of menus that are closed (in a dropdown, a folded sidebar, behind a hamburger), each with the
   * control that opens its menu; where a flow may go besides the links in sight. Absent from outlines made before it.
   */
  menuLinks?: OutlineAction[];
  /**
   * Issue 56: the page's other links in sight, outside its navigation, that are no call to action ("Forgot
   * password?" under a sign-in form, a tile that says "Works"): where a flow may go when nothing else says the place.
   */
  contentLinks?: OutlineAction[];
  sections: OutlineSection[];
  actions: OutlineAction[];
  forms: OutlineForm[];
  media: Array<{ kind: 'image' | 'video' | 'canvas' | 'iframe'; selector: string; rect: Rect }>;
  /** Overlays (cookie banners, modals) that were dismissed before analysis. */
  dismissedOverlays: string[];
}

/**
 * Issue 56: a page of the same site that the menu links to, as read before planning (analyse/linked-pages.ts): the
 * link, the page's title, and its headings each with the text under it. Where a flow goes when no link names what
 * the prompt asks for but the page behind one holds it.
 */
export interface LinkedPage {
  href: string;
  /** the label of the link that leads there */
  label: string;
  title: string;
  /** `minor`: headed by an h5 or h6 (an admin card's title, an item of a grid), weaker evidence than a page's own heading */
  parts: Array<{ heading: string; text: string; footer: boolean; minor?: boolean }>;
}

export interface AutoSelection {
  selectedId: TemplateId;
  sectionHint?: string;
  confidence: number;
  reason: string;
  source: 'heuristic' | 'ai' | 'fallback';
  signals?: string[];
}

/** What an embedding page says about itself (dynamic embeds): knowledge for the planner, not instructions. */
export interface PageContext {
  title: string | null;
  headings: string[];
  description: string | null;
}

/** One intention of the plan (stored as `ai_plan`). */
export type PlanStep =
  | { action: 'scroll'; sectionId: string | null; toY: number; label: string }
  | { action: 'hover'; target: Target; label: string }
  | { action: 'click'; target: Target; label: string }
  | { action: 'type'; target: Target; text: string; label: string }
  | { action: 'focus'; sectionId: string; label: string }
  /** Issue 56: follow a link or button of the same site to another page; the plan goes on there (record/follow-link.ts). */
  | { action: 'navigate'; target: Target; href: string | null; label: string }
  /** holdMs: a beat's hold, the least time its shot (from the scroll before it to the next) stays on screen */
  | { action: 'pause'; label: string; holdMs?: number };

export interface DemoPlan {
  templateId: TemplateId;
  autoSelection: AutoSelection | null;
  sectionHint: string | null;
  durationMs: number;
  source: 'heuristic' | 'ai' | 'fallback';
  steps: PlanStep[];
  /**
   * The shot of the section the demo is about (main-section.ts), set after planning and stored with the plan, so a
   * restyle, which re-records the stored script without an outline, takes its thumbnail from the same shot.
   */
  mainShot?: MainShot | null;
  /** Issue 36: the story's beats in the page's words (chapters and captions), timed by each recording of the plan. */
  story?: StoryText | null;
  /**
   * Issue 36: the model planner's captions as it wrote them, kept or not (the story says which were used), or why it
   * wrote none; absent when the heuristic planned. Read by the story's beats; kept in `ai_plan` to show what the
   * model answered.
   */
  captionDrafts?: CaptionDrafts;
  /**
   * Issue 55: the beats of the prompt that nothing on the page answers (plan/not-found.ts); the demo's `warnings` say
   * them. Absent from plans made before it.
   */
  notFound?: NotFound[];
}

/** A clause of the prompt that asks for something the page does not have. */
export interface NotFound {
  /** The clause as the prompt words it, without its request ("show me", "then end on"). */
  clause: string;
  /**
   * Absent when other beats were found (the video shows those); when none was: the section the fallback plan is
   * about, or null when it frames none (a pass over the page).
   */
  shownInstead?: string | null;
}

/** Which plan step frames the demo's main section; the recorder's timeline names its steps by the same label. */
export interface MainShot {
  sectionId: string;
  stepLabel: string;
}

/**
 * One timed instruction of the compiled recorder script (stored as `action_script`). `url`: the page it runs on, when
 * that is not the script's own URL (issue 56: the steps after a `navigate` run on the page it led to).
 */
export type ScriptStep = { label: string; startMs: number; durationMs: number; url?: string } & (
  | { kind: 'wait' }
  /** cut: a jump in one frame (the compositor dissolves it), for travel too long to scroll at a reader's pace */
  | { kind: 'scroll'; toY: number; cut?: boolean }
  | { kind: 'move'; target: Target }
  | { kind: 'hover'; target: Target }
  | { kind: 'click'; target: Target }
  | { kind: 'type'; target: Target; text: string }
  /**
   * Issue 56: the cursor goes to a link and clicks it (the click drawn); the page it leads to is opened when this
   * step's leg of the recording ends (record/follow-link.ts), and the next steps run there. `href`: where it led when
   * planned, the way back to that page when the link is gone.
   */
  | { kind: 'navigate'; target: Target; href: string | null }
);

export interface ActionScript {
  version: 1;
  url: string;
  viewport: ViewportName;
  durationMs: number;
  templateId: TemplateId;
  steps: ScriptStep[];
}

/** What happened on screen, for the compositor (cursor, clicks, zoom targets). Times in ms from the start. */
export interface InteractionTimeline {
  viewport: { width: number; height: number; deviceScaleFactor: number };
  durationMs: number;
  cursor: Array<{ t: number; x: number; y: number }>;
  clicks: Array<{ t: number; x: number; y: number }>;
  keystrokes: Array<{ t: number; key: string }>;
  scrolls: Array<{ t: number; y: number }>;
  /**
   * A target the recorder went to. `frame`, for a field typed into: the field with the heading its form is read by
   * (the form's title above it), which the camera keeps in view while the typing is zoomed on.
   */
  focus: Array<{ t: number; rect: Rect; label: string; frame?: Rect }>;
  steps: Array<{ index: number; label: string; kind: string; startMs: number; endMs: number }>;
}

export interface RecordingLogEntry {
  index: number;
  action: string;
  target: string | null;
  startMs: number;
  endMs: number;
  ok: boolean;
  error?: string;
}
