/*
 * Showreel embed SDK (served as /sdk.js). One global, no dependencies, safe to load twice, never breaks the page.
 *   <script src="https://showreel.example.com/sdk.js" data-showreel-key="sr_pub_…" data-project="…" async></script>
 *   <div data-showreel data-prompt="…" data-template="…" data-section="…"></div>
 * Each placeholder asks POST /api/v1/embed/generate for a demo of this page and shows it in a 16:9 iframe.
 * A placeholder naming a demo plays that demo: no key, no request, nothing charged (the player is public by id):
 *   <script src="https://showreel.example.com/sdk.js" async></script>
 *   <div data-showreel data-demo="<demo id>"></div>
 * In Showreel's own recorder (window.__showreelRecording, set by src/pipeline/browser before any page script) it
 * stands down: a recording of a page carrying an embed must not start or show a demo of itself.
 * Player events come back over Player.js postMessage and are re-emitted on the placeholder as showreel:<event>.
 */
(function (window, document) {
  'use strict';
  if (window.Showreel && window.Showreel.version) return;
  if (window.__showreelRecording) {
    // Showreel's recorder is looking at this page: no request, no iframe; mount() from the page's code is a no-op.
    window.Showreel = { version: '1', recording: true, mount: function () {} };
    return;
  }

  var VERSION = '1';
  var EVENTS = ['ready', 'play', 'pause', 'ended', 'timeupdate', 'error', 'chapterchange'];
  var script = document.currentScript || document.querySelector('script[data-showreel-key]') || document.querySelector('script[src*="/sdk.js"]');
  var defaults = {
    key: script && script.getAttribute('data-showreel-key'),
    project: script && script.getAttribute('data-project'),
    base: script && script.src ? script.src.replace(/\/sdk\.js(\?.*)?$/, '') : ''
  };
  var frames = [];

  function log(message) {
    if (window.console && console.error) console.error('[Showreel] ' + message);
  }

  function style() {
    if (document.getElementById('showreel-style')) return;
    var css = '.showreel-embed{position:relative;display:block;width:100%;aspect-ratio:16/9;overflow:hidden;border-radius:8px;background:#0c0d11;color:#c9ccd6;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
      '.showreel-embed>iframe{position:absolute;inset:0;width:100%;height:100%;border:0}' +
      '.showreel-state{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:8px;padding:16px;text-align:center}' +
      '.showreel-dot{width:12px;height:12px;border-radius:50%;background:#ff4d5e;animation:showreel-pulse 1.4s ease-in-out infinite}' +
      // A failure is a quiet poster, not a black box: neutral, light or dark as the visitor's colour scheme.
      '.showreel-embed[data-showreel-state="error"]{background:#eef0f3;color:#4b5060}' +
      '.showreel-error .showreel-dot{display:none}' +
      '.showreel-retry{font:inherit;font-size:13px;padding:5px 14px;border:1px solid currentColor;border-radius:6px;background:transparent;color:inherit;cursor:pointer}' +
      '.showreel-retry:hover,.showreel-retry:focus-visible{background:rgba(127,127,127,.15)}' +
      '@media (prefers-color-scheme:dark){.showreel-embed[data-showreel-state="error"]{background:#1b1c21;color:#a9adb9}}' +
      '@keyframes showreel-pulse{50%{opacity:.35}}@media (prefers-reduced-motion:reduce){.showreel-dot{animation:none}}';
    var tag = document.createElement('style');
    tag.id = 'showreel-style';
    tag.textContent = css;
    (document.head || document.documentElement).appendChild(tag);
  }

  function text(value, max) {
    return String(value || '').replace(/\s+/g, ' ').trim().slice(0, max);
  }

  function pageContext() {
    var headings = [];
    var nodes = document.querySelectorAll('h1,h2,h3');
    for (var i = 0; i < nodes.length && headings.length < 20; i++) {
      var h = text(nodes[i].textContent, 200);
      if (h) headings.push(h);
    }
    var meta = document.querySelector('meta[name="description"]');
    var context = { url: location.href.split('#')[0], headings: headings };
    var title = text(document.title, 200);
    if (title) context.title = title;
    var description = meta && text(meta.getAttribute('content'), 500);
    if (description) context.description = description;
    return context;
  }

  function emit(element, name, detail) {
    try {
      element.dispatchEvent(new CustomEvent('showreel:' + name, { bubbles: true, detail: detail || {} }));
    } catch (e) { /* very old browsers: no events */ }
  }

  function state(element, className, message) {
    element.textContent = '';
    var box = document.createElement('div');
    box.className = 'showreel-state ' + className;
    box.setAttribute('role', className === 'showreel-error' ? 'alert' : 'status');
    var dot = document.createElement('div');
    dot.className = 'showreel-dot';
    var p = document.createElement('p');
    p.style.margin = '0';
    p.textContent = message;
    box.appendChild(dot);
    box.appendChild(p);
    element.appendChild(box);
  }

  /** The reason goes to the console and the showreel:error event; the visitor gets a short line and a way to retry. */
  function fail(element, message, options) {
    state(element, 'showreel-error', 'This demo could not be shown.');
    element.setAttribute('data-showreel-state', 'error');
    var retry = document.createElement('button');
    retry.type = 'button';
    retry.className = 'showreel-retry';
    retry.textContent = 'Try again';
    retry.addEventListener('click', function () {
      element.removeAttribute('data-showreel-state');
      mount(element, options);
    });
    element.firstChild.appendChild(retry);
    log(message);
    emit(element, 'error', { message: message });
  }

  /** As HTML reads a boolean attribute: present (`data-autoplay`, `="autoplay"`, `="true"`) is on; "false", "0", "off" or "no" say off. */
  function isOn(value) {
    if (typeof value === 'string') return !/^(false|0|off|no)$/i.test(value.trim());
    return value === true || value === 1;
  }

  function show(element, url, options) {
    var iframe = document.createElement('iframe');
    var props = [];
    ['autoplay', 'muted', 'loop', 'controls'].forEach(function (name) {
      if (options[name] !== undefined && options[name] !== null) props.push(name + '=' + (isOn(options[name]) ? '1' : '0'));
    });
    // Issue 59: a vertical or square cut (`data-aspect="9:16"`), in a frame of its shape; the player falls back to
    // the 16:9 video when the demo has no such cut.
    var aspect = /^(16|9|1)[:x/](9|16|1)$/i.exec(String(options.aspect || '').trim());
    if (aspect && ['16:9', '9:16', '1:1'].indexOf(aspect[1] + ':' + aspect[2]) !== -1) {
      props.push('aspect=' + aspect[1] + 'x' + aspect[2]);
      element.style.aspectRatio = aspect[1] + '/' + aspect[2];
    }
    iframe.src = url + (props.length ? (url.indexOf('?') === -1 ? '?' : '&') + props.join('&') : '');
    iframe.title = options.title || 'Product demo';
    // `allow` alone: with `allowfullscreen` too, Chromium warns in the host page's console that one overrides the other.
    iframe.setAttribute('allow', 'autoplay; fullscreen; picture-in-picture');
    iframe.addEventListener('load', function () {
      // Player.js: ask for the events; "ready" arrives on its own.
      for (var i = 0; i < EVENTS.length; i++) {
        iframe.contentWindow.postMessage(JSON.stringify({ context: 'player.js', version: '0.0.11', method: 'addEventListener', value: EVENTS[i], listener: 'showreel' }), '*');
      }
    });
    frames.push({ iframe: iframe, element: element });
    element.textContent = '';
    element.appendChild(iframe);
    element.setAttribute('data-showreel-state', 'mounted');
  }

  function mount(element, options) {
    if (!element || element.nodeType !== 1) { log('mount() needs an element.'); return; }
    if (element.getAttribute('data-showreel-state')) return;
    options = options || {};
    var d = element.dataset || {};
    var pick = function (name) { return options[name] !== undefined ? options[name] : d[name]; };
    var key = options.key || d.showreelKey || defaults.key;
    var project = options.project || d.project || defaults.project;
    var base = options.base || defaults.base;
    var demo = pick('demo');
    var props = { autoplay: pick('autoplay'), muted: pick('muted'), loop: pick('loop'), controls: pick('controls'), title: pick('title'), aspect: pick('aspect') };
    style();
    element.classList.add('showreel-embed');
    element.setAttribute('data-showreel-state', 'loading');
    if (demo) {
      // An existing demo: its public player, by id. Nothing is generated, so no key and no credit.
      if (!base) return fail(element, 'Load sdk.js from your Showreel server (or pass base to Showreel.mount).', options);
      return show(element, base + '/embed/' + encodeURIComponent(String(demo)), props);
    }
    if (!key || !project || !base) return fail(element, 'Set data-showreel-key and data-project on the sdk.js script tag (or pass key and project to Showreel.mount).', options);
    state(element, 'showreel-loading', 'Loading demo…');
    var body = { project_id: project, context: pageContext() };
    ['prompt', 'template', 'section'].forEach(function (name) { var v = pick(name); if (v) body[name] = String(v); });
    fetch(base + '/api/v1/embed/generate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok || !answer.embedUrl) throw new Error(answer.error || 'The embed request failed with HTTP ' + response.status + '.');
        show(element, answer.embedUrl, props);
      });
    }).catch(function (error) {
      fail(element, error && error.message ? error.message : 'The embed request failed.', options);
    });
  }

  window.addEventListener('message', function (e) {
    var data = e.data;
    if (typeof data === 'string') { try { data = JSON.parse(data); } catch (x) { return; } }
    if (!data || data.context !== 'player.js' || !data.event) return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].iframe.contentWindow === e.source) emit(frames[i].element, data.event, data.value);
    }
  });

  function scan() {
    var found = document.querySelectorAll('[data-showreel]');
    for (var i = 0; i < found.length; i++) mount(found[i]);
  }

  window.Showreel = { version: VERSION, mount: function (element, options) { try { mount(element, options); } catch (e) { log(String(e)); } } };
  try {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
    else scan();
  } catch (e) { log(String(e)); }
})(window, document);
