import { randomInt } from 'node:crypto';

/**
 * User codes as RFC 8628 §6.1 suggests: 8 characters from 20 consonants (no vowels, so no words; no look-alikes
 * such as 0/O or 1/I/L), about 34 bits, shown as `XXXX-XXXX`, and matched whatever the case and the dashes or
 * spaces a person types.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return formatUserCode(code);
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The code as stored (hashed): upper case, without separators; null when it cannot be a user code. */
export function normaliseUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (code.length !== 8) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}
