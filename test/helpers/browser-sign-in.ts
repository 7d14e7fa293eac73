import type { Page } from 'puppeteer-core';

/** Signs `user` in to the dashboard at `base` through its own form, as a person would, and waits for the next page. */
export async function signInThroughForm(page: Page, base: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/app/sign-in`);
  await page.type('#email', user.email);
  await page.type('#password', user.password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
}
