/**
 * The routes whose pages use the settings and administration screens' strings (web/locales/*\/manage.ts):
 * the server preloads that chunk for them and the browser awaits it before it hydrates such a page.
 */
export const MANAGE_ROUTES = ['/app/settings', '/app/admin-settings', '/two-factor/setup']
