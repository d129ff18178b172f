// The live page: keeps the server-written numbers current from /api/v1/status and draws the last minutes
// from /api/v1/history. No libraries, no network beyond this daemon.
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var DIRS = ['download', 'upload'];
  // Every word comes from the server: the page's texts and fragments (status "page", made by LandingPage, as
  // the page was served) and the facts, the words, each core's state. Nothing here formats a figure for reading.
  var hist = {points: [], span: 300, interval: 1, capacity: 300, last: -1};
  var status = null;

  function all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
  function set(k, v) { all('[data-k="' + k + '"]').forEach(function (e) { if (e.textContent !== v) e.textContent = v; }); }
  function el(tag, attrs, parent, text) {
    var e = document.createElementNS(NS, tag);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (text != null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function getJson(url) {
    return fetch(url, {cache: 'no-store', credentials: 'same-origin'}).then(function (r) {
      if (!r.ok) throw new Error(url + ' answered HTTP ' + r.status);
      return r.json();
    });
  }

  function applyStatus(s) {
    status = s;
    var v = s.verdict || null, page = s.page || {text: {}, html: {}};
    Object.keys(page.text).forEach(function (k) { set(k, page.text[k]); });
    // The fragments' layout is the server's; rebuilt only when it changed.
    Object.keys(page.html).forEach(function (k) {
      all('[data-html="' + k + '"]').forEach(function (e) {
        if (e.headroomHtml !== page.html[k]) { e.headroomHtml = page.html[k]; e.innerHTML = page.html[k]; }
      });
    });
    if (s.sequence != null) set('updated', page.text.updated + ' at ' + new Date(s.timestamp * 1000).toLocaleTimeString());
    set('facts', s.facts_words || '');
    DIRS.forEach(function (d) {
      var j = (v && v[d]) || {};
      document.querySelector('[data-dir="' + d + '"]').setAttribute('data-verdict', j.verdict || 'pending');
      document.querySelector('[data-w="' + d + '.util"]').style.width = Math.min(100, (j.utilization || 0) * 100) + '%';
    });
    set('words', s.words || '');
  }

  function ingest(h) {
    hist.span = h.span_seconds; hist.interval = h.interval_seconds; hist.capacity = h.capacity;
    h.points.forEach(function (p) {
      if (p.sequence <= hist.last) return;
      p.byCpu = {};
      p.cores.forEach(function (c) { p.byCpu[c[0]] = c; });
      hist.points.push(p);
      hist.last = p.sequence;
    });
    if (hist.points.length > hist.capacity) hist.points.splice(0, hist.points.length - hist.capacity);
  }

  // The time window drawn: the whole span once there is that much, else what there is (at least a minute).
  function window_() {
    var pts = hist.points, now = pts.length ? pts[pts.length - 1].timestamp : Date.now() / 1000;
    var have = pts.length ? now - pts[0].timestamp + hist.interval : 0;
    return {now: now, span: Math.min(hist.span, Math.max(60, Math.ceil(have / 30) * 30))};
  }

  function niceStep(x) {
    var p = Math.pow(10, Math.floor(Math.log10(x))), m = x / p;
    return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
  }

  function drawChart(d, win) {
    var fig = document.getElementById('chart-' + d);
    var W = Math.max(240, fig.clientWidth), H = 180, L = 44, R = 10, T = 12, B = 22, pw = W - L - R, ph = H - T - B;
    var key = d + '_bytes_per_second', ceilB = status && status.verdict && status.verdict[d] && status.verdict[d].ceiling_bytes_per_second;
    var ceil = ceilB == null ? null : ceilB * 8 / 1e9;
    // One value per pixel column, the highest, so a one-second peak never disappears when squeezed.
    var cols = [], peak = null;
    hist.points.forEach(function (p) {
      var age = win.now - p.timestamp;
      if (age > win.span || !p.complete || p[key] == null) return;
      var x = Math.round(L + pw * (1 - age / win.span)), g = p[key] * 8 / 1e9, c = cols[cols.length - 1];
      if (c && c.x === x) { c.g = Math.max(c.g, g); } else { cols.push({x: x, g: g, t: p.timestamp}); }
      if (!peak || g > peak.g) peak = {x: x, g: g};
    });
    var top = Math.max(ceil || 0, peak ? peak.g : 0) * 1.12 || 0.001;
    var step = niceStep(top / 4);
    top = Math.ceil(top / step) * step;
    var y = function (g) { return T + ph * (1 - g / top); };
    var svg = el('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img',
      'aria-label': d + ' throughput in Gbps over the last ' + Math.round(win.span) + ' seconds'});
    for (var g = 0; g <= top + step / 2; g += step) {
      el('line', {x1: L, x2: W - R, y1: y(g), y2: y(g), 'class': 'grid'}, svg);
      el('text', {x: L - 6, y: y(g) + 4, 'text-anchor': 'end'}, svg, +g.toFixed(3) + '');
    }
    var tick = [15, 30, 60, 120, 300].filter(function (k) { return pw * k / win.span >= 64; })[0] || win.span;
    for (var a = 0; a <= win.span; a += tick) {
      el('text', {x: L + pw * (1 - a / win.span), y: H - 6, 'text-anchor': a === 0 ? 'end' : a >= win.span ? 'start' : 'middle'},
        svg, a === 0 ? 'now' : '−' + (a % 60 ? a + ' s' : a / 60 + ' min'));
    }
    var line = '', area = '', run = [];
    var gap = Math.max(3, 3 * hist.interval) * pw / win.span;
    function flush() {
      if (!run.length) return;
      line += 'M' + run.map(function (c) { return c.x + ',' + y(c.g).toFixed(1); }).join('L');
      area += 'M' + run[0].x + ',' + y(0) + 'L' + run.map(function (c) { return c.x + ',' + y(c.g).toFixed(1); }).join('L')
        + 'L' + run[run.length - 1].x + ',' + y(0) + 'Z';
      run = [];
    }
    cols.forEach(function (c) { if (run.length && c.x - run[run.length - 1].x > gap) flush(); run.push(c); });
    flush();
    if (area) el('path', {d: area, 'class': 'area'}, svg);
    if (line) el('path', {d: line, 'class': 'line'}, svg);
    if (ceil != null) {
      el('line', {x1: L, x2: W - R, y1: y(ceil), y2: y(ceil), 'class': 'ceil'}, svg);
      el('text', {x: L + 4, y: y(ceil) - 5, 'class': 'ceil-t'}, svg, 'ceiling ' + +ceil.toFixed(2) + ' Gbps');
    }
    if (peak && peak.g > 0) {
      el('circle', {cx: peak.x, cy: y(peak.g), r: 3.5, 'class': 'dot'}, svg);
      var right = peak.x > L + pw * 0.75;
      el('text', {x: peak.x + (right ? -7 : 7), y: Math.max(T + 10, y(peak.g) - 4), 'text-anchor': right ? 'end' : 'start',
        'class': 'peak-t'}, svg, 'peak ' + peak.g.toFixed(3));
    }
    var old = fig.querySelector('svg');
    if (old) fig.replaceChild(svg, old); else fig.appendChild(svg);
  }

  function coreRows(cores) {
    var box = document.querySelector('[data-list="cores"]'), rows = box.querySelectorAll('.core');
    if (rows.length === cores.length && box.getAttribute('data-ids') === cores.map(function (c) { return c.cpu; }).join()) return rows;
    box.textContent = '';
    box.setAttribute('data-ids', cores.map(function (c) { return c.cpu; }).join());
    cores.forEach(function (c) {
      var r = document.createElement('div'); r.className = 'core';
      ['name', 'strip', 'now'].forEach(function (k) { var s = document.createElement('span'); s.className = k; r.appendChild(s); });
      r.firstChild.textContent = 'cpu' + c.cpu;
      box.appendChild(r);
    });
    return box.querySelectorAll('.core');
  }

  function drawCores(win) {
    if (!status || !status.cpu) return;
    var cores = status.cpu.cores, rows = coreRows(cores), css = getComputedStyle(document.documentElement);
    var colors = ['user', 'system', 'softirq', 'steal'].map(function (m) { return css.getPropertyValue('--' + m).trim(); });
    cores.forEach(function (c, i) {
      var row = rows[i], now = row.querySelector('.now');
      now.textContent = c.words;
      var strip = row.querySelector('.strip'), cv = strip.querySelector('canvas');
      if (!cv) { cv = document.createElement('canvas'); strip.appendChild(cv); }
      var dpr = window.devicePixelRatio || 1, w = strip.clientWidth, h = strip.clientHeight;
      if (!w || !h) return;
      if (cv.width !== Math.round(w * dpr)) { cv.width = Math.round(w * dpr); cv.height = Math.round(h * dpr); }
      var ctx = cv.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, h);
      // One column per sample: its height is the core's busy share, stacked by mode.
      var cw = Math.max(1, w * hist.interval / win.span);
      hist.points.forEach(function (p) {
        var age = win.now - p.timestamp, s = p.byCpu[c.cpu];
        if (age > win.span || !s || s[1] == null) return;
        // Whole pixels, one wider than the column, so neighbours meet without hairline gaps.
        var x = Math.floor(w * (1 - age / win.span) - cw), base = h;
        for (var m = 0; m < 4; m++) {
          var sh = s[2 + m] * h;
          if (sh > 0) { ctx.fillStyle = colors[m]; ctx.fillRect(x, base - sh, Math.ceil(cw) + 1, sh); base -= sh; }
        }
      });
    });
  }

  function draw() {
    var win = window_();
    set('span', 'last ' + (win.span >= 120 ? Math.round(win.span / 60) + ' minutes' : Math.round(win.span) + ' seconds'));
    DIRS.forEach(function (d) { drawChart(d, win); });
    drawCores(win);
  }

  function poll() {
    Promise.all([getJson('/api/v1/status'), getJson('/api/v1/history?after=' + hist.last)]).then(function (r) {
      document.body.classList.remove('stale');
      applyStatus(r[0]);
      ingest(r[1]);
      draw();
    }).catch(function (e) {
      document.body.classList.add('stale');
      set('updated', 'not updating: ' + e.message);
    }).then(function () {
      setTimeout(poll, Math.max(1000, hist.interval * 1000));
    });
  }

  all('.nojs').forEach(function (e) { e.parentNode.removeChild(e); });
  var resized;
  window.addEventListener('resize', function () { clearTimeout(resized); resized = setTimeout(draw, 150); });
  poll();
})();
