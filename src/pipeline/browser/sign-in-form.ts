/**
 * In the page (sent through evaluateInPage, so it may use nothing but the DOM and its argument): finds the fields of
 * a sign-in form and marks them with `data-showreel-sign-in` ("username", "password", "submit"), so the recorder can
 * type into them. Given selectors win; otherwise the password is the first visible password field, the user name
 * the text-like field of the same form that says it is one (autocomplete, type, name, id, placeholder, label) or
 * else the last one before the password, and the submit control the form's submit button (or one that reads like
 * one). Never sees the password or the user name themselves. Returns which fields it found.
 */
export function markSignInFields(selectors: { username?: string; password?: string; submit?: string }): {
  username: boolean;
  password: boolean;
  submit: boolean;
  usernameFilled: string | null;
  badSelector: string | null;
} {
  const ATTRIBUTE = 'data-showreel-sign-in';
  for (const marked of Array.from(document.querySelectorAll(`[${ATTRIBUTE}]`))) marked.removeAttribute(ATTRIBUTE);
  let badSelector: string | null = null;
  const visible = (el: Element) => {
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' && !(el as HTMLInputElement).disabled;
  };
  const pick = (selector: string | undefined): Element | null => {
    if (!selector) return null;
    try {
      return document.querySelector(selector);
    } catch {
      badSelector = selector;
      return null;
    }
  };
  const inputs = (scope: ParentNode) => Array.from(scope.querySelectorAll('input')).filter(visible);

  const password = pick(selectors.password) ?? (selectors.password ? null : inputs(document).find((el) => el.type === 'password') ?? null);
  const scope: ParentNode = (password as HTMLInputElement | null)?.form ?? password?.closest('form') ?? document;

  const labelOf = (el: HTMLInputElement) =>
    [el.name, el.id, el.placeholder, el.getAttribute('aria-label') ?? '', ...Array.from(el.labels ?? []).map((label) => label.textContent ?? '')].join(' ');
  const before = (el: Element) => !password || Boolean(el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
  const candidates = inputs(scope).filter((el) => ['text', 'email', 'tel'].includes(el.type) && before(el));
  const score = (el: HTMLInputElement) =>
    (/\b(username|email)\b/i.test(el.autocomplete) ? 4 : 0) +
    (el.type === 'email' ? 2 : 0) +
    (/user|e-?mail|login|account|ident|phone|benutzer|courriel|usuario/i.test(labelOf(el)) ? 2 : 0) +
    // Without a password field (a two-step sign-in's first page), only a field that says so is taken.
    (password ? 1 : 0);
  const ranked = candidates.map((el, index) => ({ el, rank: score(el) * 100 + index })).filter(({ el }) => score(el) > 0);
  ranked.sort((a, b) => b.rank - a.rank);
  const username = pick(selectors.username) ?? (selectors.username ? null : ranked[0]?.el ?? null);

  const formOf = (el: Element | null) => (el as HTMLInputElement | null)?.form ?? el?.closest('form') ?? null;
  const submitScope: ParentNode = formOf(password) ?? formOf(username) ?? document;
  const buttons = Array.from(submitScope.querySelectorAll('button, input[type=submit], input[type=image], [role=button]')).filter(visible);
  const SUBMIT_WORDS = /sign ?in|log ?in|continue|next|submit|enter|anmelden|weiter|connexion|se connecter|entrar|iniciar/i;
  const submit =
    pick(selectors.submit) ??
    (selectors.submit
      ? null
      : buttons.find((el) => (el as HTMLButtonElement).type === 'submit' && formOf(el) !== null) ??
        buttons.find((el) => SUBMIT_WORDS.test(`${el.textContent ?? ''} ${(el as HTMLInputElement).value ?? ''} ${el.getAttribute('aria-label') ?? ''}`)) ??
        null);

  password?.setAttribute(ATTRIBUTE, 'password');
  username?.setAttribute(ATTRIBUTE, 'username');
  submit?.setAttribute(ATTRIBUTE, 'submit');
  return {
    username: username !== null,
    password: password !== null,
    submit: submit !== null,
    usernameFilled: (username as HTMLInputElement | null)?.value ?? null,
    badSelector,
  };
}

/** In the page: does it still ask for a password (a visible password field)? */
export function asksForPassword(): boolean {
  return Array.from(document.querySelectorAll('input[type=password]')).some((el) => {
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  });
}
