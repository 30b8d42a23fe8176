// trace.js: the page of a trace report, like a Source page: the kernels (one bar each: the
// bytes they waste), then for the chosen kernel its instructions ranked, a slider along the
// ranks, the source file with each line's excess as a heat bar (where the page embeds it), and
// the SASS instructions with their counts; clicking a line shows its instructions and their
// lesson sentence.
(function (CP) {
  'use strict';

  const where = (ins) => (ins.file ? `${ins.file.split('/').pop()}:${ins.line}` : `pc 0x${ins.pc.toString(16)}`);

  CP.trace = function (report, page, app) {
    const kernels = report.kernels || [];
    const all = report.instructions || [];
    const sources = page.sources || null;
    const leftOut = page.sources_left_out || {};
    const sassCols = sassColumns(CP.data('cp-columns') || []); // of the trace report's (docs/page.md)
    const state = { kernel: kernels.length ? kernels[0].index : null, rank: 0, line: null };
    const kernelBox = CP.h('div', { id: 'cp-kernel-chart', class: 'cp-family' });
    const controls = CP.h('div', { class: 'cp-controls' });
    const detail = CP.h('div', { id: 'cp-widgets', class: 'cp-widgets', 'aria-live': 'polite' });
    app.append(kernelBox, controls, detail);
    if (!kernels.length) { detail.appendChild(CP.h('p', {}, 'No kernel ran.')); return; }

    const pick = CP.h('select', { id: 'cp-pick', 'aria-label': 'kernel' },
      kernels.map((k) => CP.h('option', { value: k.index }, `${k.index}. ${k.name}`)));
    const slider = CP.h('input', { id: 'cp-slider', type: 'range', min: 0, max: 0, value: 0, 'aria-label': 'rank' });
    const sliderText = CP.h('output', { id: 'cp-slider-value' });
    controls.append(CP.h('label', {}, 'kernel ', pick), ' ', CP.h('label', {}, 'instruction by rank ', slider), ' ', sliderText);
    pick.addEventListener('change', () => { state.kernel = Number(pick.value); state.rank = 0; state.line = null; render(); });
    slider.addEventListener('input', () => { state.rank = Number(slider.value); state.line = null; render(); });
    CP.sortable(document.getElementById('cp-kernels'), (i) => {
      state.kernel = kernels[i].index; state.rank = 0; state.line = null; render();
    });
    CP.sortable(document.getElementById('cp-instructions'), (i) => {
      state.kernel = all[i].kernel_index;
      state.rank = mine().indexOf(all[i]);
      state.line = null;
      render();
    });

    const mine = () => all.filter((i) => i.kernel_index === state.kernel)
      .sort((a, b) => (a.rank || 1e18) - (b.rank || 1e18));

    function render() {
      const list = mine();
      pick.value = String(state.kernel);
      slider.max = String(Math.max(0, list.length - 1));
      slider.value = String(Math.min(state.rank, Math.max(0, list.length - 1)));
      const cur = list[state.rank] || null;
      sliderText.textContent = cur ? `rank ${cur.rank}: ${where(cur)}` : 'no instruction counted';
      kernelBox.replaceChildren(kernelChart(kernels, state, (k) => { state.kernel = k; state.rank = 0; render(); }));
      const line = state.line !== null ? state.line : cur && cur.line;
      detail.replaceChildren(
        tensorMaps(report, kernels.find((k) => k.index === state.kernel)),
        ranked(list, cur, (i) => { state.rank = i; state.line = null; render(); }),
        source(list, cur, line, sources, leftOut, (l) => { state.line = l; render(); }),
        lineDetail(list, cur, line),
        sass(list, cur, sassCols));
    }
    render();
  };

  // One bar per kernel: the bytes it wastes (excess), with its share; one mark per kernel. A
  // kernel whose coverage leaves its excess unknown says so, with the bytes counted, as the text
  // table does ("excess unknown (X counted)"), never a share of the program's excess.
  function kernelChart(kernels, state, choose) {
    const max = Math.max(1, ...kernels.map((k) => k.excess_bytes || 0));
    const W = 360, left = 300, h = 18;
    const bytes = (v) => (CP.num(v) ? v.toLocaleString('en') : '-') + ' B';
    const labels = kernels.map((k) => (k.coverage && k.coverage.excess_known === false
      ? `excess unknown (${bytes(k.excess_bytes)} counted)`
      : `${bytes(k.excess_bytes)} (${CP.fmt(k.excess_share, 1, 100, '%')} of the excess)`));
    // room right of the longest bar for the longest label (12 px text: at most 7.5 px a character)
    const room = Math.ceil(Math.max(0, ...labels.map((l) => l.length)) * 7.5) + 12;
    const svg = CP.s('svg', { class: 'cp-bars', id: 'cp-chart', width: left + W + 6 + room, height: kernels.length * (h + 6) + 4,
      role: 'img', 'aria-label': 'excess bytes per kernel' });
    kernels.forEach((k, i) => {
      const y = 2 + i * (h + 6), v = k.excess_bytes;
      const w = CP.num(v) ? Math.max(1, (v / max) * W) : 0;
      const bar = CP.s('rect', { x: left, y: y, width: w, height: h, class: 'cp-mark cp-bar', 'data-row': i,
        'data-v': CP.num(v) ? v : '', fill: k.index === state.kernel ? CP.colour.vermillion : CP.colour.sky, stroke: '#333' },
      CP.s('title', {}, `${k.name}: ${CP.num(v) ? v : '-'} excess bytes`));
      bar.addEventListener('click', () => choose(k.index));
      const name = k.name.length > 44 ? k.name.slice(0, 43) + '…' : k.name;
      svg.append(CP.s('text', { x: left - 6, y: y + 13, 'text-anchor': 'end', class: 'cp-small' }, name), bar,
        CP.s('text', { x: left + w + 6, y: y + 13, class: 'cp-small cp-bar-label' }, labels[i]));
    });
    return CP.h('figure', {}, CP.h('figcaption', {}, 'Kernels: bytes moved for nobody (excess)'), svg);
  }

  // The kernel's verdict (its coverage: the basis, whether its excess is known, why) and the
  // tensor maps its launches passed, each with its geometry as its process encoded it (rank,
  // dims, box, element size, swizzle) and whether its boxes move whole sectors, and why not.
  function tensorMaps(report, k) {
    const box = CP.h('div', { class: 'cp-tmaps', id: 'cp-tmaps' }, CP.h('h3', {}, 'Verdict and tensor maps'));
    if (!k) return box;
    const cov = k.coverage || {};
    const known = cov.excess_known === true ? 'known' : cov.excess_known === false ? 'unknown' : '-';
    box.appendChild(CP.h('p', { id: 'cp-verdict' }, `coverage basis: ${cov.basis || 'none'}; excess ${known}`,
      cov.reason ? `: ${cov.reason}` : ''));
    // judged by its maps' geometry (issue 45): the bytes its TMA copies moved past their boxes'
    if (CP.num(cov.tma_excess_bytes)) {
      box.appendChild(CP.h('p', { id: 'cp-tma-excess' },
        `TMA copies by geometry: ${cov.tma_excess_estimate ? 'about ' : ''}${cov.tma_excess_bytes} bytes of excess ` +
        `from ${cov.tma_copies} copies`));
    }
    const proc = (report.processes || []).find((p) => p.pid === k.pid) || {};
    const maps = proc.tensor_maps || [];
    if (!Array.isArray(k.tensor_maps)) {
      box.appendChild(CP.h('p', {}, 'The tensor maps its launches passed were not watched.'));
      return box;
    }
    if (CP.num(k.tensor_map_launches_unseen) && k.tensor_map_launches_unseen > 0) {
      box.appendChild(CP.h('p', {}, `${k.tensor_map_launches_unseen} launches passed a 128-byte parameter that is no map encoded on the host (unseen).`));
    }
    if (!k.tensor_maps.length) {
      box.appendChild(CP.h('p', {}, 'Its launches passed no tensor map encoded on the host.'));
      return box;
    }
    const list = (v) => (Array.isArray(v) && v.length ? v.join('x') : '-');
    const heads = ['map', 'launches', 'kind', 'rank', 'dims', 'box', 'element B', 'swizzle', 'whole sectors', 'why'];
    const rows = k.tensor_maps.map((use) => {
      const m = maps[use.map] || {};
      const whole = m.whole_sectors === true ? 'yes' : m.whole_sectors === false ? 'no' : 'unknown';
      return CP.h('tr', { 'data-map': use.map },
        [`#${use.map}`, String(use.launches), `${m.kind || '-'} ${m.data_type || ''}`.trim(), CP.num(m.rank) ? String(m.rank) : '-',
          list(m.global_dims), list(m.box_dims), CP.num(m.element_size_bytes) ? String(m.element_size_bytes) : '-',
          m.swizzle || '-', whole, m.whole_sectors_reason || ''].map((t) => CP.h('td', {}, t)));
    });
    box.appendChild(CP.h('table', { class: 'cp-numbers' },
      CP.h('thead', {}, CP.h('tr', {}, heads.map((t) => CP.h('th', { scope: 'col' }, t)))),
      CP.h('tbody', {}, rows)));
    return box;
  }

  // The kernel's instructions by rank: sectors per request against the ideal.
  function ranked(list, cur, choose) {
    const box = CP.h('div', { class: 'cp-ranked' }, CP.h('h3', {}, 'Instructions, ranked by the bytes they waste'));
    const ol = CP.h('ol', {});
    list.forEach((ins, i) => {
      const li = CP.h('li', { class: ins === cur ? 'cp-current' : null, tabindex: 0 },
        CP.h('b', {}, where(ins)), ` ${ins.kind || ins.op}: `,
        ins.space === 'shared'
          ? `${CP.fmt(ins.wavefronts_per_request, 2)} wavefronts/request (ideal ${CP.fmt(ins.ideal_wavefronts_per_request, 2)})`
          : `${CP.fmt(ins.sectors_per_request, 2)} sectors/request (ideal ${CP.fmt(ins.ideal_sectors_per_request, 2)}), ` +
            `${CP.num(ins.excess_bytes) ? ins.excess_bytes.toLocaleString('en') : '-'} B excess`);
      li.addEventListener('click', () => choose(i));
      ol.appendChild(li);
    });
    box.appendChild(ol);
    return box;
  }

  // The source file of the current instruction, each line with its excess as a heat bar.
  function source(list, cur, line, sources, leftOut, chooseLine) {
    const box = CP.h('div', { class: 'cp-source', id: 'cp-source' }, CP.h('h3', {}, 'Source'));
    if (!cur || !cur.file) { box.appendChild(CP.h('p', {}, 'No source line: the kernel was built without -lineinfo.')); return box; }
    const text = sources && sources[cur.file];
    if (typeof text !== 'string' && typeof leftOut[cur.file] === 'string') {
      box.appendChild(CP.h('p', {}, `${cur.file} is left out of this page: ${leftOut[cur.file]}.`));
      return box;
    }
    if (typeof text !== 'string') {
      box.appendChild(CP.h('p', {}, `${cur.file} is not in this page (--no-source, or it could not be read where the page was written).`));
      return box;
    }
    const heat = new Map();
    list.filter((i) => i.file === cur.file).forEach((i) => heat.set(i.line, (heat.get(i.line) || 0) + (i.excess_bytes || 0)));
    const max = Math.max(1, ...heat.values());
    const lines = text.split('\n');
    const lo = Math.max(1, (line || 1) - 12), hi = Math.min(lines.length, (line || 1) + 12);
    const tbody = CP.h('tbody', {});
    for (let n = lo; n <= hi; n++) {
      const h = heat.get(n);
      const tr = CP.h('tr', { class: n === line ? 'cp-current' : null, 'data-line': n },
        CP.h('td', { class: 'cp-heat' }, h !== undefined
          ? CP.s('svg', { width: 80, height: 10 }, CP.s('rect', { width: Math.max(1, (h / max) * 80), height: 10,
            fill: CP.colour.vermillion }, CP.s('title', {}, `${h} excess bytes`))) : ''),
        CP.h('td', { class: 'cp-lineno' }, String(n)),
        CP.h('td', { class: 'cp-code' }, lines[n - 1]));
      if (h !== undefined) tr.addEventListener('click', () => chooseLine(n));
      tbody.appendChild(tr);
    }
    box.append(CP.h('p', { class: 'cp-small' }, `${cur.file}, lines ${lo}-${hi}; the bar: bytes moved for nobody at that line`),
      CP.h('table', { class: 'cp-code-table' }, tbody));
    return box;
  }

  // The instructions at the chosen line, with their lesson sentence.
  function lineDetail(list, cur, line) {
    const at = list.filter((i) => cur && i.file === cur.file && i.line === line);
    const box = CP.h('div', { class: 'cp-line-detail', id: 'cp-line-detail' });
    if (!at.length) return box;
    box.appendChild(CP.h('h3', {}, `Line ${line}`));
    at.forEach((i) => box.appendChild(CP.h('p', {}, CP.h('b', {}, `${i.opcode || i.kind} (pc 0x${i.pc.toString(16)}): `),
      i.meaning || '')));
    return box;
  }

  // The SASS instructions of the kernel by address, with their counts: the columns the page's
  // description of the trace report's columns (cp-columns, from coalprobe's one table of them)
  // places in this table, in their order, under their labels. The file column shows where the
  // instruction is (file:line, or its pc without a line); a pc in hex; a number missing as '-'.
  function sassColumns(columns) {
    return columns.filter((c) => c.at && c.at.sass).sort((a, b) => a.at.sass - b.at.sass);
  }
  function sassCell(c, i) {
    const v = CP.get(i, c.path);
    if (c.key === 'file') return CP.h('td', {}, where(i));
    if (c.type === 'pc') return CP.h('td', { class: 'cp-mono' }, '0x' + v.toString(16).padStart(4, '0'));
    if (c.type === 'text') return CP.h('td', { class: 'cp-mono' }, typeof v === 'string' ? v : '');
    return CP.h('td', {}, CP.num(v) ? String(v) : '-');
  }
  function sass(list, cur, cols) {
    const rows = list.slice().sort((a, b) => a.pc - b.pc).map((i) => CP.h('tr', { class: i === cur ? 'cp-current' : null },
      cols.map((c) => sassCell(c, i))));
    return CP.h('div', { class: 'cp-sass' }, CP.h('h3', {}, 'SASS, by address'),
      CP.h('table', { class: 'cp-numbers', id: 'cp-sass' }, CP.h('thead', {}, CP.h('tr', {},
        cols.map((c) => CP.h('th', { scope: 'col', 'data-key': c.key }, c.label)))),
      CP.h('tbody', {}, rows)));
  }
})(window.CP = window.CP || {});
