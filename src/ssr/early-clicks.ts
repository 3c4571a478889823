import type { EarlyClicks } from '../../web/lib/early-clicks'

/**
 * Clicks made before the page's script runs (decision 0134). A server-rendered page shows its
 * buttons before its script has loaded (on a slow connection, seconds before), and until React has
 * hydrated a button it did nothing: the click was lost. The page's first inline script (in <head>,
 * after the theme script, with the request's nonce) keeps such clicks, and the browser's app does
 * them once React has hydrated the page (web/lib/early-clicks.ts). Kept: a click with the main
 * button and no modifier key on a button, or on what ARIA says acts as one, once per button, while
 * React does not take clicks yet (`__kontorLive`, set as it starts to hydrate). A form sent
 * meanwhile that does not post (no `method="post"`, nor a submit button's `formmethod`) is stopped:
 * sent by the browser, it would put its fields, passwords and keys among them, into the page's
 * address (a GET). It is kept, with the button that sent it, only where it says `data-early-submit`
 * (the sign-in form): a form that holds its values in React's state would be sent with the values
 * the server rendered, not those typed before hydration. The page then marks itself
 * `data-early-click` (a busy pointer, web/styles/app.css). Left to the browser: a click on or in a
 * link, a form's submit and reset buttons (a reset needs no script; the submit's form follows as
 * said), and a form that posts (the sign-up, invitation and new-password forms: it posts to the
 * page itself, which opens again, src/app.ts). A page carries it once: in the early head where one
 * leaves first (src/ssr/early-head.ts), else in the rendered head; it installs itself once all the
 * same. Its text is built from constants only.
 */
const BUTTONS = 'button,[role=button],[role=menuitem],[role=tab],[role=switch],[role=checkbox],[role=radio],[role=combobox]'

/** The window's names for the clicks kept and for React taking clicks (web/lib/early-clicks.ts reads them). */
const KEPT: keyof EarlyClicks = '__kontorClicks'
const LIVE: keyof EarlyClicks = '__kontorLive'

export const EARLY_CLICKS_SCRIPT =
  `(function(){var w=window,d=document;if(w.${KEPT})return;var q=w.${KEPT}=[];` +
  `d.addEventListener('click',function(e){var s=e.target;if(w.${LIVE}||e.button!==0||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey||!s||!s.closest)return;` +
  `var t=s.closest(${JSON.stringify(BUTTONS)});if(!t||s.closest('a[href]')||(t.form&&(t.type==='submit'||t.type==='reset')))return;` +
  `k(e,t)},true);` +
  `d.addEventListener('submit',function(e){var f=e.target,b=e.submitter;if(w.${LIVE}||!f||!f.getAttribute)return;` +
  `if(((b&&b.getAttribute('formmethod'))||f.getAttribute('method')||'').toLowerCase()==='post')return;` +
  `if(!f.hasAttribute('data-early-submit')){e.preventDefault();return}k(e,{form:f,submitter:b||null})},true);` +
  `function k(e,t){e.preventDefault();e.stopPropagation();for(var i=0;i<q.length;i++)if(q[i]===t||(t.form&&q[i].form===t.form))return;q.push(t);d.documentElement.setAttribute('data-early-click','')}})();`
