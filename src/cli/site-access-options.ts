import fs from 'node:fs/promises';
import { z } from 'zod';
import { describeIssues } from '../platform/validation.js';
import { cookieListInput, normaliseCookies, type SiteAccess } from '../projects/index.js';
import { type Parsed, UsageError, stringOption } from './command.js';

/**
 * Issue 56, for `showreel demo`: how to get past the site's sign-in. `--cookies FILE` (a JSON cookie list as
 * browsers and their extensions export it), or `--sign-in URL --user U --password-env VAR`: the password is read
 * from that environment variable, never from the command line, where `ps` and the shell's history would show it.
 */
export const SITE_ACCESS_USAGE = '[--cookies FILE | --sign-in URL --user U --password-env VAR] [--allow-submit]';

export const SITE_ACCESS_HELP = [
  '--cookies FILE   sign in with these cookies (a JSON list exported from a signed-in browser)',
  '--sign-in URL    sign in on this page first (off camera), with --user and --password-env',
  '--user U         the user name or email to sign in with',
  '--password-env V the environment variable that holds the password (never the password itself)',
  '--allow-submit   let the recording submit forms (for staging sites; off by default)',
];

export const SITE_ACCESS_OPTIONS = {
  cookies: { type: 'string' as const },
  'sign-in': { type: 'string' as const },
  user: { type: 'string' as const },
  'password-env': { type: 'string' as const },
  'allow-submit': { type: 'boolean' as const },
};

const signInUrl = z.url({ protocol: /^https?$/ }).max(2048);

export async function siteAccessFromOptions(parsed: Parsed, env: NodeJS.ProcessEnv = process.env): Promise<SiteAccess | null> {
  const cookiesFile = stringOption(parsed, 'cookies');
  const url = stringOption(parsed, 'sign-in');
  const user = stringOption(parsed, 'user');
  const passwordEnv = stringOption(parsed, 'password-env');
  if (cookiesFile !== undefined && (url !== undefined || user !== undefined || passwordEnv !== undefined)) {
    throw new UsageError('Give either --cookies or --sign-in (with --user and --password-env), not both.');
  }
  if (cookiesFile !== undefined) return { kind: 'cookies', cookies: await readCookies(cookiesFile) };
  if (url === undefined) {
    if (user !== undefined || passwordEnv !== undefined) throw new UsageError('--user and --password-env go with --sign-in URL.');
    return null;
  }
  if (!signInUrl.safeParse(url).success) throw new UsageError('--sign-in must be the http(s) URL of the sign-in page.');
  if (!user) throw new UsageError('--sign-in needs --user, the user name or email to sign in with.');
  if (!passwordEnv) throw new UsageError('--sign-in needs --password-env VAR, the environment variable that holds the password.');
  const password = env[passwordEnv];
  if (!password) throw new UsageError(`The environment variable ${passwordEnv} (--password-env) is not set or empty.`);
  return { kind: 'sign_in', url, username: user, password };
}

async function readCookies(file: string) {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--cookies: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text, which holds the cookies' values.
    throw new UsageError(`--cookies: ${file} is not JSON; export the cookies as JSON (a list of {name, value, domain…}).`);
  }
  const list = cookieListInput.safeParse(json);
  if (!list.success) throw new UsageError(`--cookies: ${file} is not a cookie list: ${describeIssues(list.error.issues)}`);
  try {
    return normaliseCookies(list.data);
  } catch (error) {
    throw new UsageError(`--cookies: ${(error as Error).message}`);
  }
}
