import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { DocsAsset } from './redoc-bundle.js';

/**
 * The /docs page's own script (no inline script: the CSP allows this origin's files only). It reads the OpenAPI
 * document, leaves out what a reader of the reference has no use for, and hands it to Redoc with the page's options
 * (the `data-options` of the mount element). Left out: `info.license`, which Redoc prints as "License:
 * LicenseRef-Proprietary" above the quick start (issue 57); the served document keeps it for tools and linters.
 *
 * Redoc's theme does not reach every colour: a few of its components write dark text of their own (section labels
 * in rgba(38, 50, 56, .5), a content type in black), unreadable on the dark page. Their generated class names are
 * only known once drawn, so the script reads what was drawn and gives those classes the page's muted text colour in
 * a style sheet of its own (each class once; later sections reuse the same classes).
 */
const SOURCE = `(function () {
  'use strict';
  var mount = document.getElementById('redoc');
  if (!mount || !window.Redoc) return;
  var specUrl = mount.getAttribute('data-spec-url');
  var options = JSON.parse(mount.getAttribute('data-options') || '{}');
  var failed = function () {
    mount.textContent = 'The API reference could not be loaded. The OpenAPI document is at ' + specUrl + '.';
    mount.className = 'docs-failed';
  };
  fetch(specUrl, { headers: { accept: 'application/json' } })
    .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.json(); })
    .then(function (spec) {
      if (spec.info) delete spec.info.license;
      window.Redoc.init(spec, options, mount, lightenDarkText);
      new MutationObserver(function () { clearTimeout(pending); pending = setTimeout(lightenDarkText, 100); }).observe(mount, { childList: true, subtree: true });
    })
    .catch(failed);

  var pending = 0;
  var fixed = {};
  var sheet = null;
  function lightenDarkText() {
    if (!sheet) { var style = document.createElement('style'); document.head.appendChild(style); sheet = style.sheet; }
    var all = mount.querySelectorAll('[class]');
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      var selector = '.' + Array.prototype.join.call(el.classList, '.');
      if (fixed[selector] || !ownText(el)) continue;
      var rgb = /rgba?\\((\\d+), (\\d+), (\\d+)/.exec(getComputedStyle(el).color);
      if (!rgb || 0.2126 * rgb[1] + 0.7152 * rgb[2] + 0.0722 * rgb[3] >= 90) continue;
      fixed[selector] = true;
      sheet.insertRule('#redoc ' + selector + '{color:#a3a7b3 !important}', sheet.cssRules.length);
    }
  }
  function ownText(el) {
    for (var n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 3 && n.nodeValue.trim()) return true;
    return false;
  }
})();
`;

let script: DocsAsset | null = null;

export function docsScript(): DocsAsset {
  if (!script) {
    const body = Buffer.from(SOURCE);
    const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    script = { body, gzipped: gzipSync(body, { level: 9 }), etag: `"${version}"`, version, contentType: 'text/javascript; charset=utf-8' };
  }
  return script;
}
