/*
 * Showreel dashboard: the one script, progressive. Every page works without it (forms post, pages reload);
 * with it: Copy buttons, confirmations, live demo progress (WebSocket, polling if refused), uploads with progress,
 * and the restyle preview. No inline script anywhere (CSP); styles change through the CSSOM only.
 */
(function () {
  'use strict';

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $$(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  function csrf(form) { var field = form && form.querySelector('input[name=csrf]'); return field ? field.value : ''; }

  // Copy buttons: the value of the field they name.
  $$('[data-copy]').forEach(function (button) {
    button.addEventListener('click', function () {
      var field = document.getElementById(button.getAttribute('data-copy'));
      if (!field) return;
      var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
      field.select();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    });
  });

  // In-page confirmations (<details class="confirm">): Cancel and Escape close them, focus back on their button.
  $$('details.confirm').forEach(function (details) {
    var close = function () { details.open = false; var summary = $('summary', details); if (summary) summary.focus(); };
    $$('[data-close-details]', details).forEach(function (button) { button.addEventListener('click', close); });
    details.addEventListener('keydown', function (event) { if (event.key === 'Escape' && details.open) close(); });
  });

  // Forms that destroy something ask first; every form shows it is working and cannot be sent twice.
  $$('form').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      var question = form.getAttribute('data-confirm');
      if (question && !window.confirm(question)) { event.preventDefault(); return; }
      if (form.hasAttribute('data-upload')) return;
      setTimeout(function () {
        $$('button[type=submit]', form).forEach(function (b) { b.disabled = true; b.setAttribute('data-label', b.textContent); b.textContent = 'Working…'; });
      }, 0);
    });
  });
  // Back/forward cache: buttons come back enabled.
  window.addEventListener('pageshow', function () {
    $$('button[data-label]').forEach(function (b) { b.disabled = false; b.textContent = b.getAttribute('data-label'); });
  });

  // Versions: Play switches the page's player to that version (without script, the link opens the video).
  var player = $('video[data-player]');
  // An older version playing says so, and which one the share link and embeds show (issue 57).
  var watching = $('[data-watching]');
  var sayWhichVersion = function (link) {
    if (!watching) return;
    var row = link.closest('tr');
    var current = $('tr[data-version][data-current]');
    if (!row || row.hasAttribute('data-current') || !current) { watching.hidden = true; return; }
    var cells = row.querySelectorAll('td');
    $('[data-watching-text]', watching).textContent = 'You are watching v' + link.getAttribute('data-play-version') +
      ' (' + cells[1].textContent.trim() + ', ' + cells[2].textContent.trim() + '). Your share link and embeds show v' + current.getAttribute('data-version') + '.';
    watching.hidden = false;
  };
  if (watching) {
    $('[data-watch-current]', watching).addEventListener('click', function (event) {
      event.preventDefault();
      var back = $('tr[data-current] [data-play-version]');
      if (back) back.click(); else watching.hidden = true;
    });
  }
  $$('[data-play-version]').forEach(function (link) {
    link.addEventListener('click', function (event) {
      if (!player) return;
      event.preventDefault();
      player.src = link.getAttribute('href');
      player.setAttribute('data-playing-version', link.getAttribute('data-play-version'));
      $$('tr[data-version]').forEach(function (row) { row.classList.toggle('playing', row.getAttribute('data-version') === link.getAttribute('data-play-version')); });
      sayWhichVersion(link);
      player.scrollIntoView({ behavior: 'smooth', block: 'center' });
      var playing = player.play();
      if (playing && playing.catch) playing.catch(function () { /* the user presses play */ });
    });
  });

  // An upload's thumbnail and GIF, made by the worker a moment after the video is published: watched for, then the
  // thumbnail becomes the player's poster and the links to both appear (until then they would be 404s).
  var pending = $('[data-previews-pending]');
  if (pending) {
    var thumbUrl = pending.getAttribute('data-previews-pending');
    var tries = 0;
    var look = function () {
      fetch(thumbUrl, { method: 'HEAD', cache: 'no-store' })
        .then(function (r) { return r.ok; }, function () { return false; })
        .then(function (ready) {
          if (ready) {
            if (player && player.paused && player.currentTime === 0) player.poster = thumbUrl;
            $$('[data-previews-link]').forEach(function (el) { el.hidden = false; });
            pending.remove();
            return;
          }
          if (++tries < 90) setTimeout(look, 2000);
          else pending.textContent = 'The thumbnail and GIF are taking longer than usual. The video plays as it is; reload the page later to see them.';
        });
    };
    setTimeout(look, 1000);
  }

  // Live progress of a demo being recorded: the API's WebSocket, or its polling URL when the socket fails.
  var progress = $('[data-progress]');
  if (progress) {
    var id = progress.getAttribute('data-progress');
    var bar = $('[data-progress-bar]', progress);
    var step = $('[data-progress-step]', progress);
    var note = $('[data-progress-note]', progress);
    var finished = false;
    var phaseWords = {};
    try { phaseWords = JSON.parse(progress.getAttribute('data-phase-labels') || '{}'); } catch (e) { /* the server's words are missing: the page reloads when done */ }
    var badge = $('.page-head .badge');
    var show = function (p) {
      if (!p || finished) return;
      var percent = Math.round((p.progress || 0) * 100);
      // No value: the browser's own "working" animation while the job waits for a worker.
      if (percent > 0) { bar.value = percent; bar.textContent = percent + '%'; } else bar.removeAttribute('value');
      // The phase in the shared vocabulary, in the words the server rendered (data-phase-labels, demos/phase.ts).
      var words = phaseWords[p.phase] || phaseWords.queued || { line: 'Working…', badge: '' };
      step.textContent = p.phase === 'queued' ? words.line : words.line + ' (' + percent + '%)';
      if (badge && words.badge) { badge.textContent = words.badge; badge.setAttribute('data-phase', p.phase); }
      if (p.status === 'ready' || p.status === 'failed' || p.status === 'deleted') {
        finished = true;
        step.textContent = p.status === 'ready' ? 'Ready. Loading the video…' : p.status === 'failed' ? 'The recording failed.' : 'The demo was deleted.';
        setTimeout(function () { window.location.reload(); }, 300);
      }
    };
    var poll = function () {
      if (finished) return;
      progress.setAttribute('data-channel', 'polling');
      fetch('/api/v1/demos/' + encodeURIComponent(id) + '/progress', { credentials: 'same-origin', headers: { accept: 'application/json' } })
        .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
        .then(function (p) { note.textContent = 'Checking every few seconds.'; show(p); })
        .catch(function () { note.textContent = 'Lost contact with the server; retrying. Reload the page if this lasts.'; })
        .then(function () { if (!finished) setTimeout(poll, 3000); });
    };
    try {
      var socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/v1/demos/' + encodeURIComponent(id) + '/ws');
      var opened = false;
      socket.onopen = function () { opened = true; progress.setAttribute('data-channel', 'websocket'); };
      socket.onmessage = function (event) { try { show(JSON.parse(event.data)); } catch (e) { /* not ours */ } };
      socket.onclose = function () { if (!finished) poll(); };
      setTimeout(function () { if (!opened && !finished) { try { socket.close(); } catch (e) { /* closed */ } } }, 5000);
    } catch (e) {
      poll();
    }
  }

  // Upload of a local recording: the file as the body, the fields in the query, the CSRF token in a header.
  var upload = $('form[data-upload]');
  if (upload) {
    var status = $('[data-upload-status]', upload);
    var meter = $('[data-upload-progress]', upload);
    var uploadError = $('[data-upload-error]', upload);
    // A refused file is said where the eye is, in the error box above the button, not in the small hint.
    var failed = function (message) { uploadError.textContent = message; uploadError.hidden = false; status.textContent = 'MP4 or WebM.'; };
    status.textContent = 'MP4 or WebM; the page shows the demo once it is published.';
    upload.addEventListener('submit', function (event) {
      event.preventDefault();
      var file = upload.elements.file.files[0];
      uploadError.hidden = true;
      if (!file) { failed('Choose a video file first.'); return; }
      var type = file.type || (/\.webm$/i.test(file.name) ? 'video/webm' : 'video/mp4');
      var query = new URLSearchParams({ project_id: upload.elements.project_id.value, prompt: upload.elements.prompt.value });
      if (upload.elements.title.value.trim()) query.set('title', upload.elements.title.value.trim());
      var button = $('button[type=submit]', upload);
      button.disabled = true;
      meter.hidden = false;
      status.textContent = 'Uploading…';
      var xhr = new XMLHttpRequest();
      xhr.open('POST', '/app/demos/upload?' + query.toString());
      xhr.setRequestHeader('Content-Type', type);
      xhr.setRequestHeader('X-CSRF-Token', csrf(upload));
      xhr.upload.onprogress = function (e) { if (e.lengthComputable) meter.value = Math.round((e.loaded / e.total) * 100); };
      xhr.upload.onload = function () { status.textContent = 'Checking the video and making its thumbnail and GIF…'; };
      xhr.onload = function () {
        var body = {};
        try { body = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        if (xhr.status === 201 && body.id) { window.location.href = '/app/demos/' + encodeURIComponent(body.id) + '?done=uploaded'; return; }
        button.disabled = false; meter.hidden = true;
        failed((body.error || 'The upload failed (' + xhr.status + ').') + ' Choose another file and try again.');
      };
      xhr.onerror = function () { button.disabled = false; meter.hidden = true; failed('The connection was lost. Check your network and try again.'); };
      xhr.send(file);
    });
  }

  // Restyle: a small preview of the chosen look, and background uploads added to the image list.
  var restyle = $('form[data-restyle]');
  if (restyle) {
    var preview = $('[data-preview]', restyle);
    var win = $('.pv-window', preview), bar2 = $('.pv-bar', preview), zoomBox = $('.pv-zoom', preview);
    var cursor = $('.pv-cursor', preview), click = $('.pv-click', preview), hud = $('.pv-hud', preview), fade = $('.pv-fade', preview);
    var value = function (name) { var f = restyle.elements[name]; return f ? f.value : ''; };
    var checked = function (name) { var f = restyle.elements[name]; return !!(f && f.checked); };
    var kind = function () { var r = $('input[name=bg_kind]:checked', restyle); return r ? r.value : 'none'; };
    var number = function (name, fallback) { var n = parseFloat(value(name)); return isNaN(n) ? fallback : n; };
    var frame = $('[data-frame]', restyle);
    // The window placed as the compositor places it (compose/layout.ts): the largest of the page's proportions that
    // fits inside the padding, with its title bar, centred. The page's proportions are the frame's (the demo's own
    // page, whole, as the video opens on it); the sketch without a frame fills the room it has. Nothing is cropped.
    var placeWindow = function (pad, barShown) {
      var W = preview.clientWidth, H = preview.clientHeight;
      if (!W || !H) return;
      var bar = barShown ? Math.max(10, Math.round(34 * H / 1080)) : 0;
      var availW = W * (1 - 2 * pad), availH = H * (1 - 2 * pad) - bar;
      var aspect = frame && frame.naturalWidth ? frame.naturalWidth / frame.naturalHeight : availW / availH;
      var w = availW, h = w / aspect;
      if (h > availH) { h = availH; w = h * aspect; }
      win.style.inset = 'auto';
      win.style.left = ((W - w) / 2 / W * 100) + '%';
      win.style.top = ((H - h - bar) / 2 / H * 100) + '%';
      win.style.width = (w / W * 100) + '%';
      win.style.height = ((h + bar) / H * 100) + '%';
      bar2.style.height = bar + 'px';
    };
    // Zoom is shown as it plays: around an action for a moment, then back to the page whole (the video's first frame
    // is not zoomed, so a preview held zoomed in cropped the page's headline).
    var zoomTimer = null;
    var showZoom = function () {
      var zoom = checked('zoom_enabled') ? Math.max(1, Math.min(3, number('zoom_intensity', 1.5))) : 1;
      zoomBox.style.transitionDuration = number('zoom_transition_ms', 600) + 'ms';
      zoomBox.style.transform = zoom > 1 ? 'scale(' + zoom + ')' : 'none';
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(function () { zoomBox.style.transform = 'none'; }, number('zoom_transition_ms', 600) + 1200);
    };
    var draw = function () {
      var k = kind();
      preview.style.background = '';
      preview.style.backgroundImage = '';
      if (k === 'colour') preview.style.background = value('bg_colour');
      else if (k === 'gradient') preview.style.background = 'linear-gradient(' + number('bg_angle', 135) + 'deg,' + value('bg_from') + ',' + value('bg_to') + ')';
      else if (k === 'image') {
        var option = restyle.elements.bg_image.selectedOptions[0];
        if (option) { preview.style.backgroundImage = 'url("' + option.getAttribute('data-url').replace(/["\\]/g, '') + '")'; preview.style.backgroundSize = 'cover'; preview.style.backgroundPosition = 'center'; }
      }
      var pad = Math.max(0, Math.min(0.3, number('padding', 0.08)));
      var mockup = value('mockup');
      placeWindow(pad, mockup === 'macos-light' || mockup === 'macos-dark');
      bar2.style.display = mockup === 'none' || mockup === 'minimal' ? 'none' : 'flex';
      bar2.style.background = mockup === 'macos-light' ? '#e6e7eb' : '#2a2d36';
      win.style.borderRadius = mockup === 'none' ? '0' : '8px';
      win.style.boxShadow = mockup === 'none' ? 'none' : '';
      var style = value('cursor_style'), size = Math.max(8, Math.min(64, number('cursor_size', 24))) * 0.6;
      cursor.style.display = style === 'none' ? 'none' : 'block';
      cursor.style.width = cursor.style.height = size + 'px';
      cursor.style.borderRadius = style === 'arrow' ? '2px 50% 50% 50%' : style === 'crosshair' ? '0' : '50%';
      cursor.style.background = style === 'circle' || style === 'crosshair' ? 'transparent' : value('cursor_color');
      cursor.style.border = style === 'circle' || style === 'crosshair' ? '2px solid ' + value('cursor_color') : '1px solid rgba(0,0,0,.5)';
      var effect = value('click_style'), scale = Math.max(0.2, Math.min(3, number('click_scale', 1)));
      click.style.display = effect === 'none' ? 'none' : 'block';
      click.style.width = click.style.height = (30 * scale) + 'px';
      click.style.borderColor = value('click_color');
      click.style.boxShadow = effect === 'glow' ? '0 0 14px 4px ' + value('click_color') : 'none';
      click.style.borderStyle = effect === 'pulse' ? 'double' : 'solid';
      hud.style.display = checked('debug_hud') ? 'block' : 'none';
      fade.style.background = value('fade_color') === 'white' ? '#fff' : '#000';
      fade.style.opacity = number('fade_in_ms', 0) > 0 || number('fade_out_ms', 0) > 0 ? '0.12' : '0';
      win.style.transform = checked('intro') || checked('outro') ? 'perspective(600px) rotateX(4deg)' : 'none';
    };
    // What will change: every field against its value when the page opened (the demo's effective look). The
    // button stays disabled while nothing did: an unchanged restyle costs a credit for the same video.
    var fieldsOf = function () {
      var out = {};
      $$('input[name], select[name]', restyle).forEach(function (f) {
        if (f.name === 'csrf' || f.type === 'file') return;
        if (f.type === 'radio') { if (f.checked) out[f.name] = f.value; } else if (f.type === 'checkbox') out[f.name] = f.checked; else out[f.name] = f.value;
      });
      // Only the fields of the chosen kind of background matter.
      var k = out.bg_kind;
      if (k !== 'colour') delete out.bg_colour;
      if (k !== 'gradient') { delete out.bg_from; delete out.bg_to; delete out.bg_angle; }
      if (k !== 'image') delete out.bg_image;
      return out;
    };
    var initial = fieldsOf();
    var submitButton = $('[data-restyle-submit]', restyle);
    var changesBox = $('[data-changes]', restyle);
    var labelOf = function (name) {
      var f = restyle.elements[name];
      if (f && !f.tagName && f.length) f = f[0];
      if (!f) return name;
      if (f.getAttribute('data-label')) return f.getAttribute('data-label');
      var label = f.id ? $('label[for="' + f.id + '"]', restyle) : null;
      return label ? label.textContent.replace(/\s*\(.*\)\s*$/, '') : name;
    };
    var shown = function (name, v) {
      if (v === undefined || v === '') return '—';
      if (v === true) return 'on';
      if (v === false) return 'off';
      // A choice is said in its option's words ("Mac window, light"), not its value.
      var field = restyle.elements[name];
      if (field && field.tagName === 'SELECT') { var o = field.querySelector('option[value="' + String(v).replace(/["\\]/g, '') + '"]'); return o ? o.textContent : v; }
      return String(v);
    };
    // The button's words and price (issue 59: a cut alone is free, a new look costs a credit) for the form as it
    // stands, asked of the server, which prices the post again by the same rule: the browser never sets a price.
    var initialButton = { label: submitButton.textContent, price: submitButton.getAttribute('data-price') };
    var priceAsked = 0, priceTimer = null;
    var showButton = function (button) {
      submitButton.textContent = button.label;
      submitButton.setAttribute('data-price', button.price);
      var head = $('[data-changes-head]', changesBox);
      if (head) head.textContent = 'What will change (' + button.price + '):';
    };
    var askPrice = function (changed) {
      clearTimeout(priceTimer);
      var asked = ++priceAsked;
      if (!changed) { showButton(initialButton); return; }
      priceTimer = setTimeout(function () {
        var fields = new URLSearchParams(new FormData(restyle));
        fields.delete('csrf');
        fetch(restyle.getAttribute('action') + '/price?' + fields.toString(), { credentials: 'same-origin' })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (button) { if (button && asked === priceAsked) showButton(button); })
          .catch(function () { /* the label stays as it was; the post is priced by the server anyway */ });
      }, 150);
    };
    var listChanges = function () {
      var now = fieldsOf(), lines = [];
      Object.keys(Object.assign({}, initial, now)).forEach(function (name) {
        if (now[name] !== initial[name] && (now[name] !== undefined || name.indexOf('bg_') !== 0)) lines.push(labelOf(name) + ': ' + shown(name, initial[name]) + ' → ' + shown(name, now[name]));
      });
      changesBox.textContent = '';
      var head = document.createElement('p');
      head.className = 'small';
      if (lines.length === 0) {
        head.className = 'muted small';
        head.textContent = restyle.hasAttribute('data-posted') ? 'Your changes were not sent (see above).' : 'Nothing changed yet: this is the demo\'s current look.';
        changesBox.appendChild(head);
      } else {
        head.setAttribute('data-changes-head', '');
        head.textContent = 'What will change (' + submitButton.getAttribute('data-price') + '):';
        var list = document.createElement('ul');
        list.className = 'change-list';
        lines.forEach(function (line) { var li = document.createElement('li'); li.textContent = line; list.appendChild(li); });
        changesBox.appendChild(head);
        changesBox.appendChild(list);
      }
      submitButton.disabled = lines.length === 0 && !restyle.hasAttribute('data-posted');
      askPrice(lines.length > 0);
    };
    var onEdit = function (event) {
      draw();
      listChanges();
      if (event.target && /^zoom_/.test(event.target.name || '')) showZoom();
    };
    restyle.addEventListener('input', onEdit);
    restyle.addEventListener('change', onEdit);
    if (frame && !frame.complete) frame.addEventListener('load', draw);
    window.addEventListener('resize', draw);
    window.addEventListener('pageshow', listChanges);
    if (!$('[data-frame]', restyle)) $('[data-preview-note]', restyle).textContent = 'A sketch of the look: background, window, padding, zoom, cursor, click, fade and HUD.';
    draw();
    listChanges();

    var fileInput = $('[data-background-upload]', restyle);
    var bgStatus = $('[data-background-status]', restyle);
    bgStatus.textContent = 'It is added to the image list and chosen.';
    fileInput.addEventListener('change', function () {
      var file = fileInput.files[0];
      if (!file) return;
      var data = new FormData();
      data.append('file', file);
      bgStatus.textContent = 'Uploading…';
      fetch('/app/backgrounds/upload', { method: 'POST', body: data, credentials: 'same-origin', headers: { 'X-CSRF-Token': csrf(restyle) } })
        .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
        .then(function (answer) {
          if (!answer.ok) { bgStatus.textContent = (answer.body.error || 'The upload failed.') + ' Choose another image.'; return; }
          var option = document.createElement('option');
          option.value = answer.body.id;
          option.textContent = file.name + ' (yours)';
          option.setAttribute('data-url', answer.body.imageUrl);
          restyle.elements.bg_image.appendChild(option);
          restyle.elements.bg_image.value = answer.body.id;
          $('input[name=bg_kind][value=image]', restyle).checked = true;
          bgStatus.textContent = 'Uploaded and chosen.';
          draw();
          listChanges();
        })
        .catch(function () { bgStatus.textContent = 'The connection was lost; try again.'; });
    });
  }
})();
