import type { AspectRatio, RestyleQuote } from '../../../demos/index.js';

/**
 * The restyle button's words: what the change the form describes does and its true price, from the server's quote
 * (quoteRestyle, the rule the restyle endpoint charges by). Issue 59's walk: the button said "Restyle for 1 credit"
 * when the change was a cut made from the kept capture, which costs nothing.
 */
export interface RestyleButton {
  /** the button's label, e.g. "Make the 9:16 cut — free", "Restyle for 1 credit" */
  label: string;
  /** the price alone ("free", "1 credit"), for the list of what will change */
  price: string;
}

const creditsWords = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
/** "the 9:16 cut", "the 9:16 and 1:1 cuts" */
const theCuts = (aspects: readonly AspectRatio[]) => `the ${aspects.join(' and ')} cut${aspects.length === 1 ? '' : 's'}`;

/** `quote` null: nothing changed yet (the button waits, priced as a restyle). */
export function restyleButton(quote: RestyleQuote | null, restylePrice: number): RestyleButton {
  if (!quote) return { label: `Restyle for ${creditsWords(restylePrice)}`, price: creditsWords(restylePrice) };
  const price = quote.credits === 0 ? 'free' : creditsWords(quote.credits);
  const cuts = quote.cuts;
  if (!cuts) return { label: `Restyle for ${price}`, price };
  const { added, removed } = cuts;
  if (quote.fromCapture) {
    const what =
      removed.length === 0 ? `Make ${theCuts(added)}` : added.length === 0 ? `Remove ${theCuts(removed)}` : `Make ${theCuts(added)}, remove ${theCuts(removed)}`;
    return { label: `${what} — free`, price };
  }
  // No kept capture to cut from: the cuts come with a new recording (a cut added is first refused, then asked again).
  const what = added.length > 0 ? `Record again with ${theCuts(added)}` : `Record again without ${theCuts(removed)}`;
  return { label: `${what} for ${price}`, price };
}
