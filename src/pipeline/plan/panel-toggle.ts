import type { OutlineAction, OutlineSection, PageOutline, PlanStep } from '../types.js';
import { targetOf } from './form-fill.js';
import { sectionsInOrder } from './outline-query.js';

/**
 * Issue 56: "How am I doing overall? Bring up my stats": an app's button that shows a panel of its own ("Stats",
 * "Achievements", "History"), named word for word by the prompt after a verb that opens something and "my" (the
 * visitor's own data in an app: "show the team" on a landing page is a part to scroll to, never a button). The button is
 * pressed (a button: never a link, which goes elsewhere) and the panel it shows is held: the part of the page headed
 * as the button is, when there is one.
 */
const BRING_UP = /\b(?:bring(?:s|ing)?\s+up|pull(?:s|ing)?\s+up|open(?:s|ing)?(?:\s+up)?|show(?:s|ing)?(?:\s+me)?|toggl(?:e|es|ing)|display(?:s|ing)?|view(?:s|ing)?|check(?:s|ing)?)\s+(?:all\s+)?my\s+([\p{L}][\p{L}'’ -]{1,30}?)(?:\s+(?:panel|view|tab|pane|screen))?(?=\s*(?:[,.;!?]|$|\s+(?:and|then|so|to)\b))/giu;

/** The panel's button held in sight after the press: long enough to read what it shows (≥ 3 s, as a list is). */
export const PANEL_HOLD_MS = 4_400;
/** A moment for the page's script to draw the panel. */
const SHOW_MS = 700;

export interface PanelAsked {
  control: OutlineAction;
  section: OutlineSection | null;
}

export function panelAsked(prompt: string, outline: PageOutline): PanelAsked | null {
  const norm = (text: string) => text.toLowerCase().replace(/[^\p{L}\d ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const buttons = outline.actions.filter((action) => action.href === null && action.kind !== 'nav-link');
  for (const match of prompt.matchAll(BRING_UP)) {
    const asked = norm(match[1]!);
    const named = (label: string) => {
      const said = norm(label);
      return said.length > 2 && (said === asked || `${said}s` === asked || said === `${asked}s`);
    };
    const controls = buttons.filter((button) => named(button.label));
    if (controls.length !== 1) continue;
    const section = sectionsInOrder(outline).find((candidate) => candidate.heading !== null && named(candidate.heading)) ?? null;
    return { control: controls[0]!, section };
  }
  return null;
}

export function panelSteps(panel: PanelAsked): PlanStep[] {
  return [
    { action: 'click', target: targetOf(panel.control), label: `Open "${panel.control.label}"` },
    { action: 'pause', label: 'Let the panel show', holdMs: SHOW_MS },
    ...(panel.section ? [{ action: 'focus' as const, sectionId: panel.section.id, label: `Show "${panel.section.heading}"` }] : []),
    { action: 'pause', label: `Hold on "${panel.section?.heading ?? panel.control.label}"`, holdMs: PANEL_HOLD_MS },
  ];
}
