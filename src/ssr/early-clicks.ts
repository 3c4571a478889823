/**
 * Clicks made before the page's script runs (decision 0134). A server-rendered page shows its
 * buttons before its script has loaded (on a slow connection, seconds before), and until React has
 * hydrated a button it did nothing: the click was lost. The page's first inline script (in <head>,
 * with the theme script and the request's nonce) keeps such clicks, and the browser's app repeats
 * them once React has hydrated the page (web/lib/early-clicks.ts). Kept: a button, or what ARIA
 * says acts as one, pressed with the main button and no modifier key, once per button, while React
 * does not take clicks yet (`__kontorLive`, set as it starts to hydrate: it replays clicks on the
 * parts it has not hydrated yet itself). The page then marks itself `data-early-click` (a busy
 * pointer, web/styles/app.css). Left to the browser: links (they work without the script) and a
 * form's submit button (a form sent before the script runs posts to the page itself, src/app.ts).
 * Installed once, however often it runs (the early head and the rendered head both carry it).
 */
const BUTTONS = 'button,[role=button],[role=menuitem],[role=tab],[role=switch],[role=checkbox],[role=radio],[role=combobox],summary'

export const EARLY_CLICKS_SCRIPT =
  `(function(){var w=window,d=document;if(w.__kontorClicks)return;var q=w.__kontorClicks=[];` +
  `d.addEventListener('click',function(e){if(w.__kontorLive||e.button!==0||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey)return;` +
  `var t=e.target&&e.target.closest?e.target.closest(${JSON.stringify(BUTTONS)}):null;` +
  `if(!t||t.closest('a[href]')||(t.form&&t.type==='submit'))return;` +
  `e.preventDefault();e.stopPropagation();if(q.indexOf(t)<0)q.push(t);d.documentElement.setAttribute('data-early-click','')},true)})();`
