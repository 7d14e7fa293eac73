import { heroSection } from '../plan/outline-query.js';
import type { PageOutline } from '../types.js';
import { sectionTitle } from './beats.js';

/**
 * What a page a flow arrives on is called, as a chapter and in the demo's title (issue 56): its own part of the page
 * title, the site's name taken off ("Sign in — Northwind Studio" after "Northwind Studio — Plan shoots…" is "Sign
 * in"; "Browser Support | AdminLTE 4" is "Browser Support"); a site whose pages all carry the same title (templates
 * often do: "GymFit | Fitness template" on every page) by the heading its page opens on ("Our Trainer"). Null when
 * neither names it. The whole page title was the chapter before, and a flow's demo was named by its first page.
 */
export function arrivalName(outline: PageOutline, start: PageOutline, prompt: string | null): string | null {
  const own = ownTitle(outline.title ?? '', start.title ?? '');
  if (own) return own;
  const hero = heroSection(outline);
  return hero ? sectionTitle(hero, prompt) : null;
}

/** The separators a page title puts between its own name and the site's. */
const TITLE_PARTS = /\s+[|–—:·•-]+\s+|\s*[|–—·•]\s*/u;

function ownTitle(title: string, startTitle: string): string | null {
  const key = (text: string) => text.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const siteParts = new Set(startTitle.split(TITLE_PARTS).map(key).filter(Boolean));
  const parts = title.split(TITLE_PARTS).map((part) => part.trim()).filter((part) => key(part) !== '');
  // The page's title only when the site's name is in it: a title that shares nothing with the start's is either the
  // same template's blurb ("HTML5 Agency Template") or another product's, and says less than the page's heading.
  if (parts.length < 2 || !parts.some((part) => siteParts.has(key(part)))) return null;
  const own = parts.filter((part) => !siteParts.has(key(part)));
  if (own.length !== 1) return null;
  const name = own[0]!;
  return name.length <= 40 && name.split(/\s+/).length <= 6 ? name : null;
}
