/*
 * Showreel player (served as /player.js inside the iframe player page). No dependencies.
 * - Loading state: follows the demo's progress over WebSocket, falling back to polling, and swaps the video in.
 * - Speaks the open Player.js postMessage protocol (context "player.js") so any player.js client can drive it.
 * - Chapters and captions (issue 36): the chapters track marks the timeline and emits `chapterchange`; a CC button
 *   shows the captions track (off by default); `[data-seek]` buttons (the share page's chapter list) seek.
 */
(function () {
  'use strict';
  var root = document.querySelector('[data-showreel-player]');
  if (!root || root.getAttribute('data-ready-wired')) return;
  root.setAttribute('data-ready-wired', '1');
  var d = root.dataset;
  var VERSION = '0.0.11';
  var EVENTS = ['ready', 'play', 'pause', 'timeupdate', 'ended', 'progress', 'error', 'chapterchange'];
  var METHODS = ['play', 'pause', 'getPaused', 'mute', 'unmute', 'getMuted', 'setVolume', 'getVolume', 'getDuration',
    'setCurrentTime', 'getCurrentTime', 'setLoop', 'getLoop', 'addEventListener', 'removeEventListener'];
  var listeners = {}; // event -> [{listener, origin}]
  var video = root.querySelector('video');
  var failed = d.state === 'failed';

  function post(target, origin, data) {
    data.context = 'player.js';
    data.version = VERSION;
    try { target.postMessage(JSON.stringify(data), origin); } catch (e) { /* a closed or foreign parent */ }
  }
  function emit(name, value) {
    var list = listeners[name] || [];
    for (var i = 0; i < list.length; i++) {
      var message = { event: name, listener: list[i].listener };
      if (value !== undefined) message.value = value;
      post(window.parent, list[i].origin, message);
    }
  }
  function announceReady() {
    // Fired whether or not anyone listens (Player.js spec), once the video can take commands.
    if (window.parent !== window) post(window.parent, '*', { event: 'ready', value: { src: location.href, events: EVENTS, methods: METHODS } });
  }
  function times() { return { seconds: video ? video.currentTime : 0, duration: video && isFinite(video.duration) ? video.duration : 0 }; }

  function wire(v) {
    video = v;
    v.addEventListener('play', function () { emit('play'); });
    v.addEventListener('pause', function () { if (!v.ended) emit('pause'); });
    v.addEventListener('ended', function () { emit('ended'); });
    v.addEventListener('timeupdate', function () { emit('timeupdate', times()); });
    v.addEventListener('progress', function () { emit('progress', times()); });
    v.addEventListener('error', function () { emit('error', { code: 1, msg: 'This video cannot be played here.' }); });
    // Space and k toggle, arrows seek: the keys a visitor tries on any player. With native controls the browser
    // already toggles on space (on keyup, whatever keydown does), so space is ours only without them.
    v.addEventListener('keydown', function (e) {
      if (e.key === 'k' || (e.key === ' ' && !v.controls)) { if (v.paused) v.play(); else v.pause(); e.preventDefault(); }
      else if (e.key === 'ArrowRight') { v.currentTime = Math.min(v.duration || 0, v.currentTime + 5); e.preventDefault(); }
      else if (e.key === 'ArrowLeft') { v.currentTime = Math.max(0, v.currentTime - 5); e.preventDefault(); }
    });
    trackViewing(v);
    wireStory(v);
    if (v.readyState >= 1) announceReady();
    else v.addEventListener('loadedmetadata', announceReady, { once: true });
  }

  /*
   * View analytics (issue 38): small beacons to the service's /api/v1/beacon with navigator.sendBeacon, once per
   * page load for `load` and `play`, at each progress mark, on each chapter reached, and the seconds watched when
   * the visitor pauses, finishes or leaves. One random view id per page load; no cookie, nothing stored in the
   * browser. Nothing is sent when the browser says Do Not Track or Global Privacy Control (the service also drops
   * such requests by their headers).
   */
  var MARKS = [10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100];
  var beacons = (function () {
    var nav = window.navigator || {};
    var optedOut = nav.doNotTrack === '1' || window.doNotTrack === '1' || nav.globalPrivacyControl === true;
    var on = Boolean(d.beaconUrl && d.demoId && typeof nav.sendBeacon === 'function' && !optedOut);
    var sent = {};
    var view = '';
    if (on) {
      var bytes = new Uint8Array(16);
      (window.crypto || window.msCrypto).getRandomValues(bytes);
      for (var i = 0; i < bytes.length; i++) view += ('0' + bytes[i].toString(16)).slice(-2);
    }
    // The embedding page's host only (the referrer of a framed player is the page around it).
    var host = '';
    if (window.parent !== window && document.referrer) { try { host = new URL(document.referrer).hostname; } catch (e) { /* none */ } }
    return function send(event, value, title) {
      var key = event + ':' + (value || 0);
      if (!on || sent[key]) return;
      sent[key] = true;
      var body = { demo: d.demoId, view: view, event: event, surface: d.surface === 'share' ? 'share' : 'embed' };
      if (value !== undefined) body.value = value;
      if (title) body.title = String(title).slice(0, 200);
      if (host) body.host = host;
      try { nav.sendBeacon(d.beaconUrl, JSON.stringify(body)); } catch (e) { /* analytics never break playback */ }
    };
  })();
  var watched = 0;
  var lastTime = null;
  var reportedWatched = 0;
  function reportWatched() {
    var seconds = Math.round(watched);
    if (seconds > reportedWatched) { reportedWatched = seconds; beacons('watched', seconds); }
  }
  /** A chapter reached (issue 36's chapters call this as playback enters each one): its index and title. */
  function reportChapter(index, title) {
    if (typeof index === 'number' && index >= 0 && index <= 999) beacons('chapter', Math.floor(index), title);
  }
  function trackViewing(v) {
    beacons('load', 0);
    v.addEventListener('play', function () { beacons('play', 0); lastTime = v.currentTime; });
    v.addEventListener('seeking', function () { lastTime = null; });
    v.addEventListener('timeupdate', function () {
      var now = v.currentTime;
      // Seconds actually played: small forward steps while playing, not seeks.
      if (lastTime !== null && !v.paused && now > lastTime && now - lastTime < 2) watched += now - lastTime;
      lastTime = now;
      var duration = isFinite(v.duration) ? v.duration : 0;
      if (duration <= 0) return;
      var percent = (now / duration) * 100;
      for (var i = 0; i < MARKS.length; i++) if (percent >= MARKS[i] - 0.5) beacons('progress', MARKS[i]);
    });
    v.addEventListener('pause', reportWatched);
    v.addEventListener('ended', function () {
      for (var i = 0; i < MARKS.length; i++) beacons('progress', MARKS[i]);
      reportWatched();
    });
    document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') reportWatched(); });
    window.addEventListener('pagehide', reportWatched);
  }
  // Chapters and captions (issue 36). Track text is only ever set as text (textContent, title), never as markup.
  function trackOf(v, kind) {
    var element = v.querySelector('track[kind="' + kind + '"]');
    return element ? { element: element, track: element.track } : null;
  }
  function wireStory(v) {
    var chapters = trackOf(v, 'chapters');
    var captions = trackOf(v, 'captions');
    if (chapters) {
      chapters.track.mode = 'hidden'; // loads the cues without showing them
      var current = -1;
      chapters.track.addEventListener('cuechange', function () {
        // At a chapter's first instant Chromium counts the chapter before it active too (a cue's end is taken as
        // inclusive), and a chapter is always entered at that instant when the list or setCurrentTime seeks to its
        // start: the chapter playing is the active one that started last.
        var active = chapters.track.activeCues || [];
        var cue = null;
        for (var a = 0; a < active.length; a++) if (!cue || active[a].startTime >= cue.startTime) cue = active[a];
        if (!cue) return;
        var cues = chapters.track.cues;
        var index = Array.prototype.indexOf.call(cues, cue);
        if (index === current) return;
        current = index;
        root.setAttribute('data-chapter', String(index));
        var buttons = document.querySelectorAll('[data-seek]');
        for (var i = 0; i < buttons.length; i++) buttons[i].setAttribute('aria-current', i === index ? 'true' : 'false');
        emit('chapterchange', { index: index, title: cue.text, start: cue.startTime, end: cue.endTime });
        reportChapter(index, cue.text);
      });
      var mark = function () { drawMarkers(v, chapters.track); };
      chapters.element.addEventListener('load', function () { if (v.readyState >= 1) mark(); else v.addEventListener('loadedmetadata', mark, { once: true }); });
      if (chapters.element.readyState === 2) mark();
    }
    if (captions) {
      captions.track.mode = 'hidden';
      var addButton = function () { ccButton(v, captions.track); };
      captions.element.addEventListener('load', addButton);
      if (captions.element.readyState === 2) addButton();
    }
  }
  function drawMarkers(v, track) {
    var duration = v.duration;
    if (!track.cues || !isFinite(duration) || duration <= 0 || root.querySelector('.markers')) return;
    var bar = document.createElement('div');
    bar.className = 'markers';
    bar.setAttribute('aria-hidden', 'true');
    for (var i = 1; i < track.cues.length; i++) {
      var marker = document.createElement('i');
      marker.style.left = (100 * track.cues[i].startTime / duration).toFixed(3) + '%';
      marker.title = track.cues[i].text;
      bar.appendChild(marker);
    }
    root.appendChild(bar);
  }
  function ccButton(v, track) {
    if (root.querySelector('.cc') || !track.cues || track.cues.length === 0) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'cc';
    button.textContent = 'CC';
    button.setAttribute('aria-label', 'Captions');
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', function () {
      var on = track.mode !== 'showing';
      track.mode = on ? 'showing' : 'hidden';
      button.setAttribute('aria-pressed', on ? 'true' : 'false');
    });
    root.appendChild(button);
  }
  document.addEventListener('click', function (e) {
    var target = e.target && e.target.closest ? e.target.closest('[data-seek]') : null;
    if (!target || !video) return;
    video.currentTime = Math.max(0, Number(target.getAttribute('data-seek')) || 0);
    video.focus();
  });

  function showVideo(version) {
    var v = document.createElement('video');
    var q = '?v=' + encodeURIComponent(version || Date.now());
    // Issue 59: a vertical or square cut (data-aspect) is the same address with its aspect.
    var media = q + (d.aspect ? '&aspect=' + encodeURIComponent(d.aspect) : '');
    v.setAttribute('playsinline', '');
    v.preload = 'metadata';
    v.tabIndex = 0;
    v.setAttribute('aria-label', d.title || 'Demo video');
    if (d.controls === 'true') v.controls = true;
    if (d.loop === 'true') v.loop = true;
    if (d.muted === 'true') { v.muted = true; v.defaultMuted = true; }
    if (d.posterUrl) v.poster = d.posterUrl + media;
    var start = Number(d.startAt) > 0 ? '#t=' + Number(d.startAt) : '';
    var source = document.createElement('source');
    source.src = d.videoUrl + media + start;
    source.type = d.mimeType || 'video/mp4';
    v.appendChild(source);
    // The version just recorded has its chapters and captions at the same address as its video, with ?v=.
    var origin = d.videoUrl.replace(/\/video\/[^/]*$/, '');
    [['chapters', 'Chapters'], ['captions', 'Captions']].forEach(function (kind) {
      if (!d.demoId) return;
      var track = document.createElement('track');
      track.kind = kind[0];
      track.label = kind[1];
      track.src = origin + '/' + kind[0] + '/' + encodeURIComponent(d.demoId) + '.vtt' + q;
      v.appendChild(track);
    });
    root.textContent = '';
    root.appendChild(v);
    root.setAttribute('data-state', 'playable');
    wire(v);
    if (d.autoplay === 'true' && v.muted) v.play().catch(function () {});
  }

  function showError() {
    failed = true;
    root.setAttribute('data-state', 'failed');
    root.innerHTML = '<div class="state" role="alert"><div class="mark" aria-hidden="true"></div>' +
      '<p class="lead">Sorry, this demo could not be recorded.</p>' +
      (d.retryable === 'true' ? '<a class="retry" href="" target="_self">Try again</a>' : '<p class="hint">Its owner can try again from their Showreel dashboard.</p>') + '</div>';
    emit('error', { code: -1, msg: 'The demo could not be recorded.' });
  }

  function onProgress(state) {
    if (!state || root.getAttribute('data-state') !== 'recording') return true;
    if (state.status === 'ready' || state.playable) { showVideo(state.version || state.updated_at); return true; }
    if (state.status === 'failed' || state.status === 'deleted') { showError(); return true; }
    var bar = root.querySelector('.bar span');
    if (bar && typeof state.progress === 'number') bar.style.width = Math.max(5, Math.round(state.progress * 100)) + '%';
    return false;
  }

  function poll() {
    fetch(d.statusUrl, { cache: 'no-store' })
      // The demo was deleted meanwhile: no status will ever come (the WebSocket says "deleted" in that case).
      .then(function (r) { return r.status === 404 ? { status: 'deleted' } : r.json(); })
      .then(function (state) { if (!onProgress(state)) setTimeout(poll, 2000); })
      .catch(function () { setTimeout(poll, 4000); });
  }

  function follow() {
    var done = false;
    var polling = false;
    function fallback() { if (!done && !polling) { polling = true; poll(); } }
    if (!('WebSocket' in window) || !d.wsUrl) return fallback();
    try {
      var socket = new WebSocket(d.wsUrl);
      socket.onmessage = function (e) { try { done = onProgress(JSON.parse(e.data)) || done; } catch (x) { /* ignore a bad frame */ } };
      socket.onerror = fallback;
      socket.onclose = function () { if (!done) fallback(); };
    } catch (e) { fallback(); }
  }

  window.addEventListener('message', function (e) {
    if (e.source !== window.parent) return;
    var data = e.data;
    if (typeof data === 'string') { try { data = JSON.parse(data); } catch (x) { return; } }
    if (!data || data.context !== 'player.js' || typeof data.method !== 'string') return;
    var origin = e.origin && e.origin !== 'null' ? e.origin : '*';
    var reply = function (value) { post(e.source, origin, { event: data.method, listener: data.listener, value: value }); };
    switch (data.method) {
      case 'addEventListener':
        if (EVENTS.indexOf(data.value) === -1) return;
        (listeners[data.value] = listeners[data.value] || []).push({ listener: data.listener, origin: origin });
        if (data.value === 'error' && failed) emit('error', { code: -1, msg: 'The demo could not be recorded.' });
        // An autoplaying video started before the parent could listen: the newcomer hears that it plays.
        if (data.value === 'play' && video && !video.paused && !video.ended) post(e.source, origin, { event: 'play', listener: data.listener });
        return;
      case 'removeEventListener':
        listeners[data.value] = (listeners[data.value] || []).filter(function (l) { return data.listener !== undefined && l.listener !== data.listener; });
        return;
    }
    if (!video) return;
    switch (data.method) {
      case 'play': video.play().catch(function () {}); return;
      case 'pause': video.pause(); return;
      case 'getPaused': return reply(video.paused);
      case 'mute': video.muted = true; return;
      case 'unmute': video.muted = false; return;
      case 'getMuted': return reply(video.muted);
      case 'setVolume': video.volume = Math.max(0, Math.min(100, Number(data.value) || 0)) / 100; return;
      case 'getVolume': return reply(Math.round(video.volume * 100));
      case 'getDuration': return reply(isFinite(video.duration) ? video.duration : 0);
      case 'setCurrentTime': video.currentTime = Math.max(0, Number(data.value) || 0); return;
      case 'getCurrentTime': return reply(video.currentTime);
      case 'setLoop': video.loop = Boolean(data.value); return;
      case 'getLoop': return reply(video.loop);
    }
  });

  var retry = root.querySelector('[data-retry]');
  if (retry) retry.addEventListener('click', function () { location.reload(); });
  if (video) wire(video);
  else if (d.state === 'recording') follow();
})();
