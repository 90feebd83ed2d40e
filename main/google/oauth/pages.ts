import type { ListenerPages, RedirectPage } from '../../platform/loopback-redirect.js';

/** The small pages the consent callback answers the browser with (rendered by the shared loopback listener). */
export type Page = RedirectPage & { status: number };

export const pages = {
  connected: (email: string): Page => ({
    status: 200,
    ok: true,
    title: 'Connected',
    message: `Airlock is now connected to ${email}. You can close this tab.`,
  }),
  wrongState: (): Page => ({
    status: 400,
    ok: false,
    title: 'This sign-in does not match',
    message:
      'This answer does not belong to the sign-in Airlock started (its state is missing or different). Airlock is still waiting: finish the sign-in in the tab Airlock opened, or start again.',
  }),
  alreadyUsed: (): Page => ({
    status: 400,
    ok: false,
    title: 'Already used',
    message: 'Airlock already received an answer for this sign-in. You can close this tab.',
  }),
  failed: (title: string, message: string): Page => ({ status: 400, ok: false, title, message }),
  notFound: (): Page => ({ status: 404, ok: false, title: 'Not found', message: 'Nothing here.' }),
};

/** The loopback listener's own pages, in the consent flow's wording. */
export const listenerPages: ListenerPages = {
  notFound: pages.notFound(),
  wrongState: pages.wrongState(),
  alreadyUsed: pages.alreadyUsed(),
  failed: (message) => pages.failed('Connection failed', message),
  incomplete: pages.failed(
    'Incomplete answer',
    'The answer from Google had neither a code nor an error. Airlock is still waiting.',
  ),
};
