// common.js: what every coalprobe page shares: the embedded report and page facts, building
// HTML and SVG (text only through textContent, so no string of a report becomes markup), number
// formats, the palette (Okabe-Ito, colour-blind safe, always beside a second cue), sortable
// tables, and the lane-map widgets (a warp's lanes over 128-byte lines and 32-byte sectors, the
// memory strip, shared-memory banks) drawn from the lane maps the C model wrote.
(function (CP) {
  'use strict';
  const SVGNS = 'http://www.w3.org/2000/svg';

  CP.data = function (id) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  };

  // An element: attrs (class, style, data-*, on*: listeners), then children (strings as text).
  function make(el, attrs, kids) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.appendChild(typeof kid === 'object' ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }
  CP.h = (tag, attrs, ...kids) => make(document.createElement(tag), attrs, kids);
  CP.s = (tag, attrs, ...kids) => make(document.createElementNS(SVGNS, tag), attrs, kids);

  // The value at a dotted path ("predicted.load.efficiency", "accesses.0.name").
  CP.get = function (o, path) {
    for (const k of path.split('.')) {
      if (o === null || o === undefined) return undefined;
      o = o[k];
    }
    return o;
  };

  CP.num = (v) => typeof v === 'number' && isFinite(v);
  // v * scale with d decimals and a suffix, '-' when v is no number (null in the JSON).
  CP.fmt = (v, d, scale, suffix) =>
    CP.num(v) ? (v * (scale || 1)).toFixed(d) + (suffix || '') : '-';

  // Okabe-Ito: distinguishable with the common colour-vision deficiencies.
  CP.colour = {
    blue: '#0072B2', orange: '#E69F00', green: '#009E73', vermillion: '#D55E00',
    sky: '#56B4E9', purple: '#CC79A7', yellow: '#F0E442', black: '#000000', grey: '#8c8c8c',
  };
  CP.series = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
  CP.dashes = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4'];
  // A lane's colour: a viridis-like ramp by lane number (the number is drawn beside it too).
  const ramp = ['#440154', '#46327e', '#365c8d', '#277f8e', '#1fa187', '#4ac16d', '#a0da39',
    '#fde725'];
  CP.laneColour = (lane) => ramp[Math.floor(lane / 4)];
  CP.laneInk = (lane) => (lane >= 20 ? '#000' : '#fff');
  CP.laneName = (lane) => '0123456789abcdefghijklmnopqrstuv'[lane];

  // <defs> with the patterns of the second cue: hatch (partly used), dots (a regression).
  CP.defs = function () {
    return CP.s('defs', {},
      CP.s('pattern', { id: 'cp-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse',
        patternTransform: 'rotate(45)' },
      CP.s('rect', { width: 6, height: 6, fill: CP.colour.orange }),
      CP.s('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#000', 'stroke-width': 1.5 })),
      CP.s('pattern', { id: 'cp-dots', width: 5, height: 5, patternUnits: 'userSpaceOnUse' },
        CP.s('rect', { width: 5, height: 5, fill: CP.colour.purple }),
        CP.s('circle', { cx: 2.5, cy: 2.5, r: 1.2, fill: '#000' })));
  };

  // ---- tables: sort by a click on a header (numbers as numbers, '-' last) --------------------
  CP.sortable = function (table, onRow) {
    const heads = table.querySelectorAll('thead th');
    heads.forEach((th, col) => {
      th.tabIndex = 0;
      th.setAttribute('aria-sort', 'none');
      const sort = () => {
        const down = th.getAttribute('aria-sort') === 'ascending';
        heads.forEach((o) => o.setAttribute('aria-sort', 'none'));
        th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
        const body = table.tBodies[0];
        const key = (tr) => {
          const td = tr.cells[col];
          const v = td ? td.getAttribute('data-v') : null;
          return v === null ? null : (isFinite(Number(v)) && v !== '' ? Number(v) : v);
        };
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = key(a), y = key(b);
          if (x === null || y === null) return (x === null) - (y === null);
          const c = typeof x === 'number' && typeof y === 'number' ? x - y
            : String(x).localeCompare(String(y));
          return down ? -c : c;
        });
        rows.forEach((r) => body.appendChild(r));
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', (e) => { if (e.key === 'Enter') sort(); });
    });
    if (onRow) {
      table.tBodies[0].addEventListener('click', (e) => {
        const tr = e.target.closest('tr');
        if (tr && tr.dataset.row !== undefined) onRow(Number(tr.dataset.row));
      });
    }
  };

  CP.markRow = function (table, row) {
    if (!table) return;
    table.querySelectorAll('tr.cp-current').forEach((tr) => tr.classList.remove('cp-current'));
    table.querySelectorAll(`tbody tr[data-row="${row}"]`).forEach((tr) =>
      tr.classList.add('cp-current'));
  };

  // ---- the lane-map widgets -------------------------------------------------------------------
  const BYTE = 4; // pixels per byte on a line
  const LINE = 128, SECTOR = 32;

  // A legend entry: a swatch (fill, optional outline dash) and its words.
  CP.swatch = function (fill, words, dash) {
    return CP.h('span', { class: 'cp-key' },
      CP.s('svg', { width: 18, height: 12, 'aria-hidden': 'true' }, CP.defs(),
        CP.s('rect', { x: 1, y: 1, width: 16, height: 10, fill: fill, stroke: '#333',
          'stroke-dasharray': dash || null })), ' ', words);
  };

  // The lines a global request touches, from its touched sectors: [{line, sectors: Map}].
  function linesOf(req) {
    const lines = new Map();
    (req.touched_sectors || []).forEach((s, i) => {
      const line = Math.floor(s * SECTOR / LINE);
      if (!lines.has(line)) lines.set(line, new Map());
      lines.get(line).set(s % (LINE / SECTOR), req.used_bytes[i]);
    });
    return Array.from(lines.keys()).sort((a, b) => a - b).map((l) => ({ line: l, sectors: lines.get(l) }));
  }

  // One global (or TMA) request: the warp's lanes lighting up their bytes over the lines it
  // touches, lane by lane up to `shown` lanes, and the memory strip under each line: sectors
  // fully used, partly used, or untouched. field: bytes of a record's field band (layout).
  CP.drawGlobal = function (req, laneBytes, shown, opts) {
    const lines = linesOf(req).slice(0, 32);
    const left = 112, rowH = 34, w = left + LINE * BYTE + 90;
    const svg = CP.s('svg', { class: 'cp-lanes', width: w, height: 22 + lines.length * (rowH + 14),
      role: 'img', 'aria-label': 'lanes over lines and sectors' }, CP.defs());
    for (let s = 0; s < 4; s++) {
      svg.appendChild(CP.s('text', { x: left + s * SECTOR * BYTE + 2, y: 12, class: 'cp-small' },
        `sector ${s}`));
    }
    lines.forEach((ln, i) => {
      const y = 20 + i * (rowH + 14);
      svg.appendChild(CP.s('text', { x: 2, y: y + 14, class: 'cp-mono' },
        '0x' + (ln.line * LINE).toString(16).padStart(10, '0')));
      const g = CP.s('g', { class: 'cp-line', 'data-line': ln.line });
      for (let s = 0; s < 4; s++) { // the strip: one box per sector of the line
        const used = ln.sectors.get(s);
        const kind = used === undefined ? 'untouched' : used >= SECTOR ? 'full' : 'partly';
        g.appendChild(CP.s('rect', { x: left + s * SECTOR * BYTE, y: y + 22, width: SECTOR * BYTE - 2,
          height: 10, class: `cp-sector cp-${kind}`, 'data-used': used === undefined ? 0 : used,
          fill: kind === 'full' ? CP.colour.blue : kind === 'partly' ? 'url(#cp-hatch)' : '#fff',
          stroke: '#333', 'stroke-dasharray': kind === 'untouched' ? '3 2' : null },
        CP.s('title', {}, kind === 'untouched' ? 'not fetched'
          : `${used} of 32 bytes used (${kind})`)));
        g.appendChild(CP.s('rect', { x: left + s * SECTOR * BYTE, y: y, width: SECTOR * BYTE - 2,
          height: 20, fill: 'none', stroke: used === undefined ? '#ccc' : '#333' }));
      }
      if (opts && opts.field) { // a record's fields: faint bands with their number
        for (let b = 0; b < LINE; b += opts.field.bytes) {
          const f = Math.floor(((ln.line * LINE + b) % opts.field.record) / opts.field.bytes);
          g.appendChild(CP.s('text', { x: left + b * BYTE + 1, y: y - 1, class: 'cp-tiny' }, `f${f}`));
        }
      }
      const sectors = ln.sectors.size;
      g.appendChild(CP.s('text', { x: left + LINE * BYTE + 6, y: y + 14, class: 'cp-small' },
        `${sectors} sector${sectors === 1 ? '' : 's'}`));
      svg.appendChild(g);
    });
    const index = new Map(lines.map((ln, i) => [ln.line, i]));
    const sharers = new Map(); // lanes at one address: a broadcast, drawn as '*'
    (req.addresses || []).forEach((a, lane) => {
      if (a !== null && lane < shown) sharers.set(a, (sharers.get(a) || 0) + 1);
    });
    (req.addresses || []).forEach((a, lane) => {
      if (a === null || lane >= shown) return;
      const many = sharers.get(a) > 1;
      const row = index.get(Math.floor(a / LINE));
      if (row === undefined) return;
      const y = 20 + row * (rowH + 14), x = left + (a % LINE) * BYTE;
      const bw = Math.min(laneBytes, LINE - (a % LINE)) * BYTE - 1;
      svg.appendChild(CP.s('rect', { x: x, y: y + 2, width: bw, height: 16, class: 'cp-lane',
        'data-lane': lane, fill: many ? CP.colour.grey : CP.laneColour(lane) }, CP.s('title', {},
        many ? `${sharers.get(a)} lanes read bytes ${a}..${a + laneBytes - 1} (served once: a broadcast)`
          : `lane ${lane}: bytes ${a}..${a + laneBytes - 1}`)));
      if (bw >= 7) {
        svg.appendChild(CP.s('text', { x: x + bw / 2, y: y + 14, class: 'cp-lane-label',
          'text-anchor': 'middle', fill: many ? '#000' : CP.laneInk(lane) }, many ? '*' : CP.laneName(lane)));
      }
    });
    return svg;
  };

  // One shared request: 32 banks across, one row per wavefront; each cell the lane whose word
  // the bank delivers in that wavefront ('*' several lanes, one word: a broadcast).
  CP.drawBanks = function (req, shown) {
    const cell = 22, left = 86;
    const words = (req.words || []).filter((w) => w[0] < shown);
    const rows = Math.max(1, ...(req.words || []).map((w) => w[2]));
    const svg = CP.s('svg', { class: 'cp-banks', width: left + 32 * cell + 10,
      height: 30 + rows * cell, role: 'img', 'aria-label': 'banks and wavefronts' });
    for (let b = 0; b < 32; b++) {
      svg.appendChild(CP.s('text', { x: left + b * cell + cell / 2, y: 12, class: 'cp-tiny',
        'text-anchor': 'middle' }, String(b)));
    }
    for (let r = 0; r < rows; r++) {
      svg.appendChild(CP.s('text', { x: 2, y: 18 + r * cell + 15, class: 'cp-small' },
        `wavefront ${r + 1}`));
      for (let b = 0; b < 32; b++) {
        svg.appendChild(CP.s('rect', { x: left + b * cell, y: 18 + r * cell, width: cell - 2,
          height: cell - 2, fill: '#fff', stroke: '#ccc' }));
      }
    }
    const seen = new Map();
    words.forEach(([lane, bank, wave]) => {
      const k = bank + ':' + wave;
      seen.set(k, seen.has(k) ? '*' : lane);
    });
    for (const [k, lane] of seen) {
      const [bank, wave] = k.split(':').map(Number);
      const x = left + bank * cell, y = 18 + (wave - 1) * cell;
      const fill = lane === '*' ? CP.colour.grey : CP.laneColour(lane);
      svg.appendChild(CP.s('rect', { x: x, y: y, width: cell - 2, height: cell - 2, fill: fill,
        class: 'cp-word', 'data-bank': bank, 'data-wavefront': wave },
      CP.s('title', {}, lane === '*' ? `bank ${bank}: one word for several lanes (broadcast)`
        : `bank ${bank}, wavefront ${wave}: lane ${lane}`)));
      svg.appendChild(CP.s('text', { x: x + (cell - 2) / 2, y: y + 14, 'text-anchor': 'middle',
        class: 'cp-lane-label', fill: lane === '*' ? '#000' : CP.laneInk(lane) },
      lane === '*' ? '*' : CP.laneName(lane)));
    }
    return svg;
  };

  // The words under a request's picture: what the model counts for it.
  CP.requestSummary = function (access, req) {
    const c = req.counts || {};
    if (access.space === 'shared') {
      return `${c.wavefronts} wavefront${c.wavefronts === 1 ? '' : 's'}, ideal ${c.ideal_wavefronts}: ` +
        `${c.bank_conflicts} bank conflict${c.bank_conflicts === 1 ? '' : 's'}, ${c.bytes_requested} B asked`;
    }
    if (access.space === 'constant') {
      return `${c.wavefronts} distinct word${c.wavefronts === 1 ? '' : 's'}: ${c.wavefronts} pass` +
        `${c.wavefronts === 1 ? '' : 'es'} of the constant cache`;
    }
    return `${c.sectors} sector${c.sectors === 1 ? '' : 's'}, ${c.lines} line${c.lines === 1 ? '' : 's'}, ` +
      `${c.bytes_requested} B asked: ${CP.fmt(c.efficiency, 1, 100, '%')} efficiency, ideal ${c.ideal_sectors} sectors`;
  };

  CP.legend = function () {
    return CP.h('p', { class: 'cp-legend' },
      CP.swatch(CP.colour.blue, 'sector fully used'), ' ',
      CP.swatch('url(#cp-hatch)', 'partly used (hatched)'), ' ',
      CP.swatch('#fff', 'in a touched line, not fetched (dashed)', '3 2'), ' ',
      'lanes: coloured by number, labelled 0-9, a-v; * several lanes, one address (a broadcast)');
  };
})(window.CP = window.CP || {});
