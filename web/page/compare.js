// compare.js: the page of a comparison: what got better and what got worse, then a slider over
// the compared rows with each value's base and new side by side (two bars: base plain, new
// hatched when worse, with the verdict in words), and one status mark per row.
(function (CP) {
  'use strict';

  const label = (r) => (r.pattern
    ? r.pattern + ' ' + Object.entries(r.config || {}).map(([k, v]) => `${k}=${v}`).join(' ')
    : [r.kernel, r.where].filter(Boolean).join(' | '));
  const worse = (v) => v === 'regressed' || v === 'changed';
  const words = (v) => String(v).replace(/_/g, ' ');
  const statusFill = (s) => (worse(s) ? 'url(#cp-dots)' : s === 'improved' ? CP.colour.green
    : s === 'same' ? '#fff' : CP.colour.grey);

  CP.compare = function (report, page, app) {
    const rows = report.rows || [];
    // reports of different GPUs: their measured counts that differ are not comparable
    const otherGpu = typeof report.base_device === 'string' && typeof report.new_device === 'string' &&
      report.base_device !== report.new_device;
    const summary = CP.h('p', { class: 'cp-summary' }, Object.entries(report.summary || {})
      .map(([k, v]) => `${v} ${k.replace(/_/g, ' ')}`).join(', ') +
      ` (tolerance ${CP.fmt(report.tolerance, 1, 100, '%')})`);
    const only = (what, list) => (list && list.length ? CP.h('p', {}, `${what}: ` + list.map(label).join('; ')) : null);
    const slider = CP.h('input', { id: 'cp-slider', type: 'range', min: 0, max: Math.max(0, rows.length - 1), value: 0,
      'aria-label': 'compared row' });
    const sliderText = CP.h('output', { id: 'cp-slider-value' });
    const strip = CP.h('div', { id: 'cp-status-chart' });
    const detail = CP.h('div', { id: 'cp-widgets', class: 'cp-widgets', 'aria-live': 'polite' });
    // a side without rows of its own has no line (append would write a null as the text "null")
    app.append(...[summary, only('only in base', report.only_in_base), only('only in new', report.only_in_new),
      strip].filter(Boolean), CP.h('div', { class: 'cp-controls' }, CP.h('label', {}, 'row ', slider), ' ', sliderText), detail);
    const table = document.getElementById('cp-compare');
    const select = (i) => {
      slider.value = String(i);
      sliderText.textContent = rows.length ? `${i + 1} of ${rows.length}` : 'no matched rows';
      CP.markRow(table, i);
      strip.replaceChildren(statusChart(rows, i, select));
      detail.replaceChildren(sideBySide(rows[i], otherGpu));
    };
    slider.addEventListener('input', () => select(Number(slider.value)));
    // what got worse and what got better, each a list that selects its row
    const lists = CP.h('div', { class: 'cp-two' });
    [['Worse', (r) => worse(r.status) || r.status === 'regressed'], ['Better', (r) => r.status === 'improved']]
      .forEach(([title, keep]) => {
        const items = rows.map((r, i) => [r, i]).filter(([r]) => keep(r));
        lists.appendChild(CP.h('div', {}, CP.h('h3', {}, `${title} (${items.length})`),
          CP.h('ul', {}, items.map(([r, i]) => CP.h('li', { tabindex: 0, onclick: () => select(i) }, label(r))))));
      });
    summary.after(lists);
    CP.sortable(table, select);
    if (rows.length) select(0);
  };

  // One mark per compared row, filled by its status (and patterned when it is worse).
  function statusChart(rows, cur, select) {
    const w = 18;
    const svg = CP.s('svg', { id: 'cp-chart', width: Math.max(200, rows.length * (w + 4) + 10), height: 34, role: 'img',
      'aria-label': 'status of every compared row' }, CP.defs());
    rows.forEach((r, i) => {
      const m = CP.s('rect', { x: 4 + i * (w + 4), y: 4, width: w, height: 22, fill: statusFill(r.status),
        stroke: i === cur ? '#000' : '#666', 'stroke-width': i === cur ? 3 : 1, class: 'cp-mark', 'data-row': i,
        'data-v': r.status }, CP.s('title', {}, `${label(r)}: ${words(r.status)}`));
      m.addEventListener('click', () => select(i));
      svg.appendChild(m);
    });
    return CP.h('figure', {}, CP.h('figcaption', {}, 'Every compared row: dotted worse, green better, white the same, grey not comparable'), svg);
  }

  // Base and new of each value of one row, side by side.
  function sideBySide(r, otherGpu) {
    if (!r) return CP.h('p', {}, 'No matched rows.');
    const box = CP.h('div', { class: 'cp-side' }, CP.h('h2', {}, label(r)),
      CP.h('p', {}, `status: ${words(r.status)}`, r.note ? ` (${r.note})` : ''));
    (r.metrics || []).forEach((m) => {
      const max = Math.max(Math.abs(m.base || 0), Math.abs(m.new || 0)) || 1;
      const W = 300;
      const bar = (v, y, fill, name) => [
        CP.s('text', { x: 0, y: y + 13, class: 'cp-small' }, name),
        CP.s('rect', { x: 44, y: y, width: CP.num(v) ? Math.max(1, (Math.abs(v) / max) * W) : 0, height: 16, fill: fill,
          stroke: '#333', class: 'cp-bar', 'data-v': CP.num(v) ? v : '' }),
        CP.s('text', { x: 50 + (CP.num(v) ? (Math.abs(v) / max) * W : 0), y: y + 13, class: 'cp-small' },
          CP.num(v) ? String(v) : '-')];
      const svg = CP.s('svg', { width: 470, height: 44, role: 'img', 'aria-label': `${m.name}: base ${m.base}, new ${m.new}` },
        CP.defs(), ...bar(m.base, 2, CP.colour.sky, 'base'),
        ...bar(m.new, 22, worse(m.verdict) ? 'url(#cp-dots)' : m.verdict === 'improved' ? CP.colour.green : CP.colour.purple, 'new'));
      box.appendChild(CP.h('figure', { class: 'cp-metric', 'data-verdict': m.verdict },
        CP.h('figcaption', {}, CP.h('b', {}, m.name), ` ${words(m.verdict)}` +
          (m.verdict === 'not_comparable' && otherGpu ? ': counted on different GPUs' : '') +
          (CP.num(m.change) ? ` (${m.change > 0 ? '+' : ''}${(m.change * 100).toFixed(1)}%)` : '')), svg));
    });
    return box;
  }
})(window.CP = window.CP || {});
