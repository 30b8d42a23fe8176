// sweep.js: the page of a sweep: a row picker and a slider over the swept parameter that move
// every widget (the warp's lanes over lines and sectors, played lane by lane; the memory
// strip; shared-memory banks; the bandwidth bar, measured beside predicted), the family's view
// (the GEMM ladder, transpose's tile written and read, layout's fields) and the charts, one
// mark per row. Every number comes from the report; the lanes from its lane maps.
(function (CP) {
  'use strict';

  // The configuration keys whose values differ between rows, the chart's keys first.
  function sweptKeys(rows, page) {
    const keys = Object.keys((rows[0] || {}).config || {});
    const varies = (k) => new Set(rows.map((r) => JSON.stringify(r.config[k]))).size > 1;
    const order = (page.chart_keys || []).concat(keys.filter((k) => !(page.chart_keys || []).includes(k)));
    return order.filter((k) => keys.includes(k) && varies(k));
  }

  function rowLabel(row, page) {
    const keys = (page.table_keys && page.table_keys.length) ? page.table_keys : Object.keys(row.config);
    return row.pattern + ' ' + keys.map((k) => `${k}=${row.config[k]}`).join(' ');
  }

  const value = (row, k) => row.config[k];
  const cmp = (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : 0);

  CP.sweep = function (report, page, app) {
    const rows = report.rows || [];
    if (!rows.length) { app.appendChild(CP.h('p', {}, 'The report has no rows.')); return; }
    const swept = sweptKeys(rows, page);
    const state = { row: 0, param: swept[0] || null, lanes: 32, access: 0, timer: null };
    const table = document.getElementById('cp-rows');

    // controls: the row picker, the parameter the slider moves along, the slider
    const pick = CP.h('select', { id: 'cp-pick', 'aria-label': 'row' },
      rows.map((r, i) => CP.h('option', { value: i }, `${i + 1}. ${rowLabel(r, page)}`)));
    const param = CP.h('select', { id: 'cp-param', 'aria-label': 'parameter the slider moves' },
      swept.map((k) => CP.h('option', { value: k }, k)));
    const slider = CP.h('input', { id: 'cp-slider', type: 'range', min: 0, max: 0, step: 1, value: 0,
      'aria-label': 'swept parameter' });
    const sliderText = CP.h('output', { id: 'cp-slider-value', for: 'cp-slider' });
    const controls = CP.h('div', { class: 'cp-controls' },
      CP.h('label', {}, 'row ', pick),
      swept.length ? CP.h('label', {}, ' slide over ', param) : null,
      swept.length ? CP.h('label', {}, ' ', slider, ' ', sliderText) : null);
    const widgets = CP.h('div', { id: 'cp-widgets', class: 'cp-widgets', 'aria-live': 'polite' });
    const charts = CP.h('div', { id: 'cp-charts', class: 'cp-charts' });
    app.append(controls, widgets, charts);

    // The rows the slider walks: those equal to the current row in every other swept key.
    function along() {
      if (!state.param) return rows.map((r, i) => i);
      const cur = rows[state.row];
      return rows.map((r, i) => i)
        .filter((i) => swept.every((k) => k === state.param ||
          JSON.stringify(value(rows[i], k)) === JSON.stringify(value(cur, k))))
        .sort((a, b) => cmp(value(rows[a], state.param), value(rows[b], state.param)) || a - b);
    }

    function select(i) {
      state.row = i;
      pick.value = String(i);
      const path = along();
      slider.max = String(Math.max(0, path.length - 1));
      slider.value = String(Math.max(0, path.indexOf(i)));
      if (state.param) sliderText.textContent = `${state.param} = ${value(rows[i], state.param)}`;
      CP.markRow(table, i);
      render();
    }

    pick.addEventListener('change', () => select(Number(pick.value)));
    param.addEventListener('change', () => { state.param = param.value; select(state.row); });
    slider.addEventListener('input', () => select(along()[Number(slider.value)]));
    if (table) CP.sortable(table, select);

    function render() {
      const row = rows[state.row];
      widgets.replaceChildren(...[
        CP.h('h2', {}, rowLabel(row, page)),
        numbers(row),
        bandwidth(row, rows, report),
        family(row, rows, state, select),
        lanes(row, state, render)].filter(Boolean));
      charts.replaceChildren(chart(rows, swept, state, select, page));
    }
    select(0);
  };

  // Predicted beside measured, the row's headline numbers.
  function numbers(row) {
    const p = row.predicted, m = row.measured;
    const cells = [];
    const add = (what, pred, meas) => cells.push(CP.h('tr', {}, CP.h('th', { scope: 'row' }, what),
      CP.h('td', { class: 'cp-pred' }, pred), CP.h('td', { class: 'cp-meas' }, meas)));
    const sides = [['load', 'ld'], ['store', 'st']];
    for (const [side, short] of sides) {
      const pc = p && p[side];
      if (!pc || !pc.requests) continue;
      add(`${short} sectors/request`, CP.fmt(pc.sectors_per_request, 2),
        CP.fmt(CP.get(m, `counters.${side}.sectors_per_request`), 2));
      add(`${short} efficiency`, CP.fmt(pc.efficiency, 1, 100, '%'),
        CP.fmt(CP.get(m, `counters.${side}.efficiency`), 1, 100, '%'));
    }
    for (const side of ['shared_load', 'shared_store']) {
      const sc = p && p[side];
      if (!sc || !sc.requests) continue;
      add(`${side.replace('_', ' ')} wavefronts/request`, CP.fmt(sc.wavefronts_per_request, 2),
        CP.fmt(CP.get(m, `counters.${side}.wavefronts_per_request`), 2));
    }
    // a family's own counters (the atomic family's requests and sectors), the model's own with
    // nothing measured
    const own = (p && p.family_counters) || {};
    for (const key of Object.keys(own)) {
      const meas = CP.get(m, `counters.family_counters.${key}`);
      add(key.replace(/_/g, ' '), CP.fmt(own[key], 0), meas === undefined ? '' : CP.fmt(meas, 0));
    }
    if (m) add('match', '', m.match === true ? 'yes' : m.match === false ? 'NO' : '-');
    return CP.h('table', { class: 'cp-numbers' },
      CP.h('thead', {}, CP.h('tr', {}, CP.h('th', {}, ''), CP.h('th', { scope: 'col' }, 'predicted'),
        CP.h('th', { scope: 'col' }, 'measured'))), CP.h('tbody', {}, cells));
  }

  // The bandwidth bar: measured useful and DRAM bandwidth of the row, and the bound its
  // predicted efficiency puts on the useful part at the measured peak, on one scale for all rows.
  function bandwidth(row, rows, report) {
    const peak = CP.get(report, 'device.peak_measured_bytes_per_s');
    const m = row.measured;
    if (row.pattern === 'gemm') return null; // operands read again and again: the ladder's times tell
    const box = CP.h('div', { class: 'cp-bandwidth', id: 'cp-bandwidth' });
    box.appendChild(CP.h('h3', {}, 'Bandwidth'));
    if (!m || !CP.num(m.useful_bytes_per_s)) {
      const eff = CP.get(row, 'predicted.load.efficiency');
      if (!CP.num(eff)) return null; // no global load, nothing measured: no bar to draw
      box.appendChild(CP.h('p', {}, 'Model only: nothing measured. Predicted load efficiency ',
        CP.h('b', {}, CP.fmt(eff, 1, 100, '%')), ': that share of every byte moved is asked for.'));
      box.appendChild(bars([{ label: 'predicted efficiency', v: CP.num(eff) ? eff : 0, text: CP.fmt(eff, 1, 100, '%'),
        fill: CP.colour.green }], 1, 'bw'));
      return box;
    }
    const eff = CP.get(row, 'predicted.load.efficiency');
    const max = Math.max(peak || 0, ...rows.map((r) => Math.max(CP.get(r, 'measured.useful_bytes_per_s') || 0,
      CP.get(r, 'measured.dram_bytes_per_s') || 0)));
    const list = [
      { label: 'measured useful', v: m.useful_bytes_per_s, fill: CP.colour.vermillion },
      { label: 'measured DRAM', v: m.dram_bytes_per_s, fill: CP.colour.sky },
    ];
    if (CP.num(peak) && CP.num(eff)) {
      list.push({ label: 'predicted: efficiency × peak', v: eff * peak, fill: CP.colour.green,
        dash: '4 2' });
    }
    if (CP.num(peak)) list.push({ label: 'measured peak (memcpy)', v: peak, fill: '#ddd' });
    list.forEach((b) => { b.text = CP.fmt(b.v, 1, 1e-9, ' GB/s'); });
    box.appendChild(bars(list, max, 'bw'));
    return box;
  }

  // Horizontal bars: [{label, v, text, fill, dash}] on a scale of max.
  function bars(list, max, cls) {
    const W = 360, left = 200, h = 20;
    const svg = CP.s('svg', { class: `cp-bars cp-${cls}`, width: left + W + 110, height: list.length * (h + 6) + 4,
      role: 'img', 'aria-label': list.map((b) => `${b.label} ${b.text}`).join(', ') });
    list.forEach((b, i) => {
      const y = 2 + i * (h + 6);
      const w = CP.num(b.v) && max > 0 ? Math.max(1, (b.v / max) * W) : 0;
      svg.append(CP.s('text', { x: left - 6, y: y + 14, 'text-anchor': 'end', class: 'cp-small' }, b.label),
        CP.s('rect', { x: left, y: y, width: w, height: h, fill: b.fill, stroke: '#333',
          'stroke-dasharray': b.dash || null, class: 'cp-bar', 'data-v': CP.num(b.v) ? b.v : '' },
        CP.s('title', {}, `${b.label}: ${b.text}`)),
        CP.s('text', { x: left + w + 6, y: y + 14, class: 'cp-small' }, b.text));
    });
    return svg;
  }

  // The family's own view: the GEMM ladder; a layout's record; the others need none beyond
  // their lane maps (transpose's tile written and read, smem's banks are accesses there).
  function family(row, rows, state, select) {
    if (row.pattern !== 'gemm') return null;
    const box = CP.h('div', { class: 'cp-family', id: 'cp-ladder' }, CP.h('h3', {}, 'The ladder'));
    const measured = rows.some((r) => CP.num(CP.get(r, 'measured.time_s.median')));
    const list = rows.map((r, i) => {
      const t = CP.get(r, 'measured.time_s.median');
      const spr = ['A', 'B', 'C'].map((n, a) => CP.fmt(CP.get(r, `predicted.accesses.${a}.sectors_per_request`), 0)).join(' / ');
      return measured
        ? { label: `${r.config.variant} ${r.config.m}×${r.config.n}×${r.config.k}`, v: t, text: CP.fmt(t, 2, 1e3, ' ms'),
          fill: i === state.row ? CP.colour.vermillion : CP.colour.sky }
        : { label: `${r.config.variant} (A/B/C ${spr} sec/req)`, v: CP.get(r, 'predicted.load.sectors_per_request'),
          text: CP.fmt(CP.get(r, 'predicted.load.sectors_per_request'), 2, 1, ' ld sec/req'),
          fill: i === state.row ? CP.colour.vermillion : CP.colour.sky };
    });
    const max = Math.max(...list.map((b) => (CP.num(b.v) ? b.v : 0)));
    const svg = bars(list, max, 'ladder');
    svg.querySelectorAll('rect.cp-bar').forEach((r, i) => {
      r.classList.add('cp-mark');
      r.setAttribute('data-row', i);
      r.addEventListener('click', () => select(i));
    });
    box.appendChild(svg);
    box.appendChild(CP.h('p', { class: 'cp-small' }, measured
      ? 'Bars in ladder order, measured time; the lane maps of A, B and C below.'
      : 'Bars in ladder order, predicted load sectors per request (model only); lane maps of A, B and C below.'));
    return box;
  }

  // Every access of the row: its lane map, one picture per instruction, played lane by lane.
  function lanes(row, state, render) {
    const accesses = CP.get(row, 'predicted.accesses') || [];
    const box = CP.h('div', { class: 'cp-access-box', id: 'cp-lanes' });
    if (!accesses.some((a) => a.lane_map)) {
      box.appendChild(CP.h('p', {}, row.predicted ? 'This report has no lane maps (written before coalprobe wrote them).'
        : 'Not modelled (cuBLAS): no lanes to draw.'));
      return box;
    }
    const play = CP.h('button', { type: 'button', id: 'cp-play' }, state.timer ? 'stop' : 'play lane by lane');
    const scrub = CP.h('input', { type: 'range', min: 0, max: 32, value: state.lanes, id: 'cp-lanes-shown',
      'aria-label': 'lanes shown' });
    const shownText = CP.h('output', {}, `${state.lanes} of 32 lanes`);
    scrub.addEventListener('input', () => { state.lanes = Number(scrub.value); render(); });
    play.addEventListener('click', () => {
      if (state.timer) { clearInterval(state.timer); state.timer = null; render(); return; }
      state.lanes = 0;
      state.timer = setInterval(() => {
        state.lanes += 1;
        if (state.lanes >= 32) { clearInterval(state.timer); state.timer = null; }
        render();
      }, 120);
      render();
    });
    box.append(CP.h('h3', {}, `Warp ${CP.get(accesses.find((a) => a.lane_map), 'lane_map.warp')}: its lanes, first loop step`),
      CP.h('div', { class: 'cp-controls' }, play, ' ', scrub, ' ', shownText), CP.legend());
    const field = row.pattern === 'layout' && row.config.layout === 'aos'
      ? { bytes: 4, record: 4 * row.config.fields } : null;
    accesses.forEach((a, ai) => {
      if (!a.lane_map) return;
      a.lane_map.requests.forEach((req) => {
        const title = `${a.name}: ${!a.space || a.space === 'global' ? '' : a.space + ' '}${a.op} of ${a.lane_bytes} B per lane` +
          (a.instructions > 1 ? `, instruction ${req.instruction + 1} of ${a.instructions}` : '') +
          (row.pattern === 'transpose' && a.space === 'shared' ? (a.op === 'store' ? ' (the tile written)' : ' (the tile read)') : '');
        const pic = a.space === 'shared' ? CP.drawBanks(req, state.lanes)
          : a.space === 'constant' ? CP.h('p', { class: 'cp-mono' }, 'addresses: ' +
            req.addresses.filter((x) => x !== null).join(' '))
            : CP.drawGlobal(req, a.lane_bytes, state.lanes, { field: field });
        box.appendChild(CP.h('figure', { class: 'cp-access', 'data-access': ai },
          CP.h('figcaption', {}, title), pic, CP.h('p', { class: 'cp-sum' }, '= ' + CP.requestSummary(a, req))));
      });
    });
    return box;
  }

  // The chart: sectors (or wavefronts, or a family's first counter of its own where there are
  // neither, as for atomics) per request against the slider's parameter, predicted
  // as hollow circles on lines, measured as dots; one hollow mark per row (data-row), a line
  // per combination of the other swept keys.
  function chart(rows, swept, state, select, page) {
    const own = Object.keys(CP.get(rows[0], 'predicted.family_counters') || {})[0];
    const metric = rows.some((r) => CP.num(CP.get(r, 'predicted.load.sectors_per_request')))
      ? { path: 'load.sectors_per_request', label: 'load sectors per request' }
      : rows.some((r) => CP.num(CP.get(r, 'predicted.shared_load.wavefronts_per_request')))
        ? { path: 'shared_load.wavefronts_per_request', label: 'shared wavefronts per request' }
        : own ? { path: `family_counters.${own}`, label: own.replace(/_/g, ' ') }
          : { path: 'store.sectors_per_request', label: 'store sectors per request' };
    if (rows[0].pattern === 'smem') {
      metric.path = 'shared_{op}.wavefronts_per_request';
      metric.label = 'shared wavefronts per request';
    }
    const pathOf = (r) => metric.path.replace('{op}', r.config.op || 'load');
    const xKey = state.param;
    const numeric = xKey && rows.every((r) => typeof r.config[xKey] === 'number');
    const xs = numeric ? rows.map((r) => r.config[xKey]) : rows.map((r, i) => i);
    const ys = rows.flatMap((r) => [CP.get(r.predicted, pathOf(r)), CP.get(r.measured, 'counters.' + pathOf(r))]).filter(CP.num);
    const W = 640, H = 260, L = 56, B = 40;
    const xmin = Math.min(...xs), xmax = Math.max(...xs), ymax = Math.max(1, ...ys);
    const X = (v) => L + (xmax === xmin ? W / 2 : ((v - xmin) / (xmax - xmin)) * W);
    const Y = (v) => 10 + H - (v / ymax) * H;
    const svg = CP.s('svg', { class: 'cp-chart', id: 'cp-chart', width: L + W + 30, height: H + B + 20, role: 'img',
      'aria-label': `${metric.label} against ${xKey || 'row'}` });
    svg.append(CP.s('line', { x1: L, y1: 10 + H, x2: L + W, y2: 10 + H, stroke: '#333' }),
      CP.s('line', { x1: L, y1: 10, x2: L, y2: 10 + H, stroke: '#333' }),
      CP.s('text', { x: L + W / 2, y: H + B + 10, 'text-anchor': 'middle', class: 'cp-small' }, xKey || 'row'),
      CP.s('text', { x: 12, y: 10 + H / 2, transform: `rotate(-90 12 ${10 + H / 2})`, 'text-anchor': 'middle',
        class: 'cp-small' }, metric.label));
    for (let t = 0; t <= 4; t++) {
      const v = (ymax * t) / 4;
      svg.appendChild(CP.s('text', { x: L - 6, y: Y(v) + 4, 'text-anchor': 'end', class: 'cp-tiny' }, v.toFixed(v < 10 ? 1 : 0)));
    }
    const ticks = new Map(xs.map((x, i) => [x, numeric ? String(x) : String(xKey ? rows[i].config[xKey] : i + 1)]));
    if (ticks.size <= 40) {
      ticks.forEach((text, x) => svg.appendChild(CP.s('text', { x: X(x), y: 10 + H + 14, 'text-anchor': 'middle',
        class: 'cp-tiny' }, text)));
    }
    // series: the other swept keys
    const others = swept.filter((k) => k !== xKey);
    const seriesOf = (r) => others.map((k) => `${k}=${r.config[k]}`).join(' ');
    const groups = new Map();
    rows.forEach((r, i) => {
      const k = seriesOf(r);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(i);
    });
    let si = 0;
    const legend = CP.h('p', { class: 'cp-legend' });
    for (const [name, idx] of groups) {
      const colour = CP.series[si % CP.series.length], dash = CP.dashes[si % CP.dashes.length];
      const pts = idx.filter((i) => CP.num(CP.get(rows[i].predicted, pathOf(rows[i]))))
        .sort((a, b) => xs[a] - xs[b]).map((i) => `${X(xs[i])},${Y(CP.get(rows[i].predicted, pathOf(rows[i])))}`);
      if (pts.length > 1) {
        svg.appendChild(CP.s('polyline', { points: pts.join(' '), fill: 'none', stroke: colour,
          'stroke-dasharray': dash || null }));
      }
      legend.appendChild(CP.h('span', { class: 'cp-key' }, CP.s('svg', { width: 26, height: 10 },
        CP.s('line', { x1: 0, y1: 5, x2: 26, y2: 5, stroke: colour, 'stroke-width': 2, 'stroke-dasharray': dash || null })),
      ' ', name || 'predicted'));
      si++;
    }
    rows.forEach((r, i) => {
      const p = CP.get(r.predicted, pathOf(r)), m = CP.get(r.measured, 'counters.' + pathOf(r));
      const series = [...groups.keys()].indexOf(seriesOf(r));
      const colour = CP.series[series % CP.series.length];
      const cy = CP.num(p) ? Y(p) : 10 + H;
      const mark = CP.s('circle', { cx: X(xs[i]), cy: cy, r: i === state.row ? 7 : 4.5, fill: '#fff', stroke: colour,
        'stroke-width': i === state.row ? 3 : 1.5, class: 'cp-mark' + (i === state.row ? ' cp-current' : ''),
        'data-row': i, 'data-v': CP.num(p) ? p : '' },
      CP.s('title', {}, `${xKey || 'row'} ${numeric ? r.config[xKey] : i + 1}: predicted ${CP.fmt(p, 2)}, measured ${CP.fmt(m, 2)}`));
      mark.addEventListener('click', () => select(i));
      svg.appendChild(mark);
      if (CP.num(m)) {
        svg.appendChild(CP.s('circle', { cx: X(xs[i]), cy: Y(m), r: 2.5, fill: colour, class: 'cp-measured',
          'data-row': i, 'data-v': m }));
      }
    });
    legend.append(' ', CP.h('span', { class: 'cp-key' }, '○ predicted, ● measured'));
    void page;
    return CP.h('figure', { class: 'cp-chart-box' }, CP.h('figcaption', {}, `${metric.label} against ${xKey || 'row'}`),
      svg, legend);
  }
})(window.CP = window.CP || {});
