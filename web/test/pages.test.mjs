// pages.test.mjs: every kind of coalprobe page (--format html), written by
// tests/web/page_test.sh into CP_PAGES_DIR, opened in Debian's chromium (CP_CHROMIUM), headless,
// with the network off: no request at all, no script error, one chart mark per row carrying the
// report's number, the table's cells the report's numbers as the text table shows them, the
// slider moving the widgets, hostile names shown as text, and every number readable with
// scripts off. CP_SCREENSHOT_DIR=DIR keeps a screenshot of each page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(new URL('../package.json', import.meta.url));
const { chromium } = require('playwright-core');

const dir = process.env.CP_PAGES_DIR;
const shots = process.env.CP_SCREENSHOT_DIR;
let browser;

before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CP_CHROMIUM, args: ['--no-sandbox'] });
});
after(async () => { if (browser) await browser.close(); });

// Opens a page offline; returns {page, requests, errors, report, meta, close}.
async function open(name, options = {}) {
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 },
    javaScriptEnabled: options.scripts !== false });
  const page = await context.newPage();
  const file = 'file://' + path.join(dir, name);
  const requests = [], errors = [];
  page.on('request', (r) => { if (r.url() !== file) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(file, { waitUntil: 'load' });
  const report = await page.evaluate(() => JSON.parse(document.getElementById('cp-report').textContent));
  const meta = await page.evaluate(() => JSON.parse(document.getElementById('cp-page').textContent));
  return { page, requests, errors, report, meta, close: () => context.close() };
}

async function shoot(page, name) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  // the whole page down to 2,400 px: the pictures and the table's first rows
  const height = Math.min(2400, await page.evaluate(() => document.documentElement.scrollHeight));
  await page.screenshot({ path: path.join(shots, name.replace(/\.html$/, '.png')), fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: height } });
}

const get = (o, p) => p.split('.').reduce((x, k) => (x === null || x === undefined ? undefined : x[k]), o);

// Every table cell with data-v against the report: the same value, shown as the text table shows
// it (value * scale to the column's decimals).
// a trace kernel whose coverage leaves its excess unknown: its excess columns say "unknown" (as
// the text table does), never the bytes counted as if they were its excess
const EXCESS = ['excess_bytes', 'excess_pct', 'excess_share'];
const unknownExcess = (row, p) => EXCESS.includes(p) && row.coverage && row.coverage.excess_known === false;

async function checkTable(page, tableId, rowsOf) {
  const cells = await page.evaluate((id) => {
    const t = document.getElementById(id);
    const heads = Array.from(t.tHead.rows[0].cells).map((th) => ({ path: th.dataset.path,
      scale: Number(th.dataset.scale), decimals: Number(th.dataset.decimals) }));
    return Array.from(t.tBodies[0].rows).map((tr) => ({ row: Number(tr.dataset.row),
      cells: Array.from(tr.cells).map((td, i) => ({ v: td.getAttribute('data-v'), text: td.textContent, ...heads[i] })) }));
  }, tableId);
  let checked = 0;
  for (const tr of cells) {
    const row = rowsOf[tr.row];
    for (const c of tr.cells) {
      if (!c.path) continue;
      if (unknownExcess(row, c.path)) {
        assert.deepEqual([c.text, c.v], ['unknown', null], `${c.path} of row ${tr.row}: excess unknown`);
        checked++;
        continue;
      }
      const want = get(row, c.path.replace('{op}', get(row, 'config.op') || 'load'));
      if (want === null || want === undefined) { assert.equal(c.text, '-', `${c.path} of row ${tr.row}`); continue; }
      if (typeof want === 'number') {
        assert.equal(Number(c.v), want, `${c.path} of row ${tr.row}`);
        if (c.decimals >= 0) {
          const shown = parseFloat(c.text);
          assert.ok(Math.abs(shown - want * c.scale) <= 0.5 * 10 ** -c.decimals + 1e-9 * Math.abs(want * c.scale),
            `${c.path} of row ${tr.row}: shows ${c.text} for ${want}`);
        }
      } else if (typeof want === 'string') {
        assert.equal(c.text, want);
      }
      checked++;
    }
  }
  return checked;
}

async function sliderMoves(page, position) {
  const before = await page.evaluate(() => document.getElementById('cp-widgets').innerHTML);
  await page.evaluate((v) => {
    const s = document.getElementById('cp-slider');
    s.value = String(v);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, position);
  const afterHtml = await page.evaluate(() => document.getElementById('cp-widgets').innerHTML);
  return before !== afterHtml;
}

function common(p) {
  assert.deepEqual(p.requests, [], 'the page makes no request');
  assert.deepEqual(p.errors, [], 'no script error');
}

const sweeps = ['stride.html', 'stride_widths.html', 'gemm.html', 'smem.html', 'transpose.html', 'layout.html',
  'measured_stride.html', 'measured_gemm.html', 'atomic.html', 'measured_atomic.html'];

for (const name of sweeps) {
  test(`sweep page ${name}`, async () => {
    const p = await open(name);
    try {
      common(p);
      const { page, report } = p;
      assert.ok(await page.evaluate(() => document.body.classList.contains('cp-ready')));
      const n = report.rows.length;
      // one chart mark per row, each with its row's number from the report
      const marks = await page.$$eval('#cp-chart .cp-mark', (m) => m.map((e) => ({ row: Number(e.dataset.row), v: e.dataset.v })));
      assert.equal(marks.length, n, 'one mark per row');
      assert.deepEqual(marks.map((m) => m.row).sort((a, b) => a - b), [...Array(n).keys()]);
      // the chart's metric: smem's side, a family's first counter of its own (atomic), else loads
      const own = Object.keys(get(report.rows[0], 'predicted.family_counters') || {})[0];
      const metric = report.rows[0].pattern === 'smem' ? (r) => get(r, `predicted.shared_${r.config.op}.wavefronts_per_request`)
        : own ? (r) => get(r, `predicted.family_counters.${own}`)
          : (r) => get(r, 'predicted.load.sectors_per_request');
      for (const m of marks) {
        const want = metric(report.rows[m.row]);
        if (typeof want === 'number') assert.equal(Number(m.v), want, `mark of row ${m.row}`);
      }
      // the table: one row per report row, the report's numbers
      assert.equal(await page.$$eval('#cp-rows tbody tr', (r) => r.length), n);
      assert.ok(await checkTable(page, 'cp-rows', report.rows) > n);
      // the lanes drawn are the lane map's: each lane rect sits at its address
      const lanes = await page.$$eval('#cp-lanes .cp-lane', (r) => r.length);
      const maps = report.rows[0].predicted && report.rows[0].predicted.accesses.some((a) => a.lane_map && a.space !== 'shared');
      if (maps) assert.ok(lanes > 0, 'lanes drawn');
      // moving the slider changes the widgets, and marks another row
      if (n > 1) {
        assert.ok(await sliderMoves(page, 1), 'the slider moves the widgets');
        const current = await page.$$eval('#cp-chart .cp-mark.cp-current', (m) => m.map((e) => Number(e.dataset.row)));
        assert.equal(current.length, 1);
        assert.notEqual(current[0], 0);
      }
      // playing the lanes lights fewer lanes first
      if (maps) {
        await page.click('#cp-play');
        const early = await page.$$eval('#cp-lanes .cp-lane', (r) => r.length);
        assert.ok(early < lanes || lanes === 0, `playing starts with fewer lanes (${early} of ${lanes})`);
        await page.waitForFunction(() => document.getElementById('cp-play').textContent.startsWith('play'), null,
          { timeout: 20000 });
      }
      await shoot(page, name);
    } finally {
      await p.close();
    }
  });
}

test('the 32-row stride page is at most 2 MB', () => {
  assert.ok(fs.statSync(path.join(dir, 'stride.html')).size <= 2 * 1024 * 1024);
});

test('the stride page shows the text table\'s numbers', async () => {
  // coalprobe --stride 1..32 --model: its golden text table, first eight columns (the
  // parameters and the predicted ones), against the page's table
  const text = fs.readFileSync(new URL('../../tests/golden/cli_stride_1_32.txt', import.meta.url), 'utf8');
  const want = text.split('\n').filter((l) => /^\s*\d/.test(l)).map((l) => l.trim().split(/\s+/).slice(0, 8));
  const p = await open('stride.html');
  try {
    const got = await p.page.$$eval('#cp-rows tbody tr', (rows) =>
      rows.map((r) => Array.from(r.cells).slice(0, 8).map((c) => c.textContent)));
    assert.deepEqual(got, want);
  } finally {
    await p.close();
  }
});

test('the readonly page spells table sizes as the input and the text table do', async () => {
  const p = await open('readonly.html');
  try {
    common(p);
    const col = await p.page.$$eval('#cp-rows thead th', (h) => h.findIndex((th) => th.dataset.path === 'config.table_bytes'));
    assert.ok(col >= 0, 'a table column');
    const cells = await p.page.$$eval('#cp-rows tbody tr', (rows, c) => rows.map((r) => [r.cells[c].textContent,
      Number(r.cells[c].dataset.v)]), col);
    assert.deepEqual(cells, [['4K', 4096], ['16K', 16384], ['64K', 65536], ['256K', 262144], ['1M', 1048576],
      ['4M', 4194304], ['16M', 16777216], ['64M', 67108864], ['132', 132]]);
    assert.ok(await checkTable(p.page, 'cp-rows', p.report.rows) > 0);
  } finally {
    await p.close();
  }
});

test('the layout page marks the fields of an AoS record', async () => {
  const p = await open('layout.html');
  try {
    await p.page.evaluate(() => {
      const s = document.getElementById('cp-slider');
      s.value = '3';
      s.dispatchEvent(new Event('input'));
    });
    const fields = await p.page.$$eval('#cp-lanes text.cp-tiny', (t) => t.map((e) => e.textContent).filter((x) => /^f\d/.test(x)));
    assert.ok(fields.includes('f3'), 'a record of 4 fields shows field 3');
  } finally {
    await p.close();
  }
});

test('the smem page draws the banks and wavefronts of the lane map', async () => {
  const p = await open('smem.html');
  try {
    const row = p.report.rows[0];
    const smem = row.predicted.accesses.find((a) => a.name === 'smem');
    const words = smem.lane_map.requests[0].words;
    const drawn = await p.page.$$eval('#cp-lanes figure[data-access="1"] .cp-word', (w) => w.length);
    assert.equal(drawn, new Set(words.map((w) => `${w[1]}:${w[2]}`)).size);
  } finally {
    await p.close();
  }
});

for (const name of ['trace.html', 'trace_nosource.html']) {
  test(`trace page ${name}`, async () => {
    const p = await open(name);
    try {
      common(p);
      const { page, report, meta } = p;
      const marks = await page.$$eval('#cp-chart .cp-mark', (m) => m.map((e) => Number(e.dataset.v)));
      assert.deepEqual(marks, report.kernels.map((k) => k.excess_bytes));
      assert.ok(await checkTable(page, 'cp-instructions', report.instructions) > 0);
      assert.ok(await checkTable(page, 'cp-kernels', report.kernels) > 0);
      assert.ok(report.kernels.some((k) => unknownExcess(k, 'excess_bytes')), 'a kernel of unknown excess is checked');
      // the columns of every table, the script's too, are the page's description of the trace
      // report's columns (cp-columns, written from coalprobe's one table of them), in its places
      const columns = await page.evaluate(() => JSON.parse(document.getElementById('cp-columns').textContent));
      const placed = (view, key) => columns.filter((c) => c.at[view]).sort((a, b) => a.at[view] - b.at[view]).map((c) => c[key]);
      assert.deepEqual(await page.$$eval('#cp-kernels thead th', (t) => t.map((e) => e.dataset.path)), placed('kernels', 'kernel_path'));
      assert.deepEqual(await page.$$eval('#cp-instructions thead th', (t) => t.map((e) => e.dataset.path)), placed('instructions', 'path'));
      assert.deepEqual(await page.$$eval('#cp-sass thead th', (t) => t.map((e) => e.textContent)), placed('sass', 'label'));
      const sassKeys = placed('sass', 'key');
      const mineSorted = report.instructions.filter((i) => i.kernel_index === report.kernels[0].index).sort((a, b) => a.pc - b.pc);
      const sassRows = await page.$$eval('#cp-sass tbody tr', (r) => r.map((tr) => Array.from(tr.cells).map((td) => td.textContent)));
      assert.equal(sassRows.length, mineSorted.length);
      const req = sassKeys.indexOf('requests');
      assert.ok(req >= 0 && sassRows.every((r, n) => r[req] === (typeof mineSorted[n].requests === 'number' ? String(mineSorted[n].requests) : '-')));
      if (name === 'trace.html') {
        assert.ok(meta.sources && Object.keys(meta.sources).length === 1, 'the source file is in the page');
        // the source with its heat bars; a click on a line shows its instructions' sentence
        const hot = await page.$$eval('#cp-source tr[data-line] .cp-heat rect', (r) => r.length);
        assert.ok(hot >= 1);
        const line = report.instructions.find((i) => i.kernel_index === report.kernels[0].index && i.line).line;
        await page.click(`#cp-source tr[data-line="${line}"]`);
        const detail = await page.textContent('#cp-line-detail');
        assert.ok(detail.includes(`Line ${line}`));
        const meaning = report.instructions.find((i) => i.line === line && i.kernel_index === report.kernels[0].index).meaning;
        assert.ok(detail.includes(meaning));
      } else {
        assert.equal(meta.sources, undefined, '--no-source leaves the sources out');
        assert.ok((await page.textContent('#cp-source')).includes('is not in this page'));
      }
      // the kernel chart: every text inside the picture (the largest bar's label too), and a
      // kernel whose excess is unknown says so, as the text table does, never a share of it
      const said = await page.$$eval('#cp-chart text', (t) => t.map((e) => e.textContent));
      for (const k of report.kernels.filter((x) => x.coverage && x.coverage.excess_known === false)) {
        const label = said[said.indexOf(k.name.length > 44 ? k.name.slice(0, 43) + '…' : k.name) + 1];
        assert.ok(label.startsWith('excess unknown ('), `${k.name}: "${label}" where the table says excess unknown`);
        assert.ok(!label.includes('of the excess'), `${k.name}: "${label}"`);
      }
      const overflow = await page.$$eval('#cp-chart text', (t) => {
        const svg = document.getElementById('cp-chart');
        const right = svg.getBoundingClientRect().right;
        return t.filter((e) => e.getBoundingClientRect().right > right + 0.5).map((e) => e.textContent);
      });
      assert.deepEqual(overflow, [], 'labels cut off at the chart\'s right edge');
      // the kernel picker and the rank slider move the widgets
      await page.selectOption('#cp-pick', String(report.kernels[1].index));
      assert.ok(await sliderMoves(page, 1) || report.instructions.filter((i) => i.kernel_index === report.kernels[1].index).length < 2);
      await shoot(page, name);
    } finally {
      await p.close();
    }
  });
}

// a kernel's verdict and the tensor maps its launches passed, with their geometry (issue 45)
test('trace page tmaps.html: the kernel\'s verdict and tensor maps', async () => {
  const p = await open('tmaps.html');
  try {
    common(p);
    const { page, report } = p;
    const k = report.kernels[0];
    assert.equal(k.coverage.basis, 'tensor_map_geometry');
    assert.ok((await page.textContent('#cp-verdict')).startsWith('coverage basis: tensor_map_geometry; excess known'));
    assert.equal(await page.textContent('#cp-tma-excess'), 'TMA copies by geometry: 0 bytes of excess from 384 copies');
    const rows = await page.$$eval('#cp-tmaps tbody tr', (r) => r.map((tr) => Array.from(tr.cells).map((td) => td.textContent)));
    const m = report.processes[0].tensor_maps[k.tensor_maps[0].map];
    assert.deepEqual(rows, [[`#${k.tensor_maps[0].map}`, String(k.tensor_maps[0].launches), `${m.kind} ${m.data_type}`,
      String(m.rank), m.global_dims.join('x'), m.box_dims.join('x'), String(m.element_size_bytes), m.swizzle,
      'yes', m.whole_sectors_reason]]);
  } finally {
    await p.close();
  }
});

for (const name of ['compare.html', 'compare_trace.html', 'compare_other_gpu.html']) {
  test(`compare page ${name}`, async () => {
    const p = await open(name);
    try {
      common(p);
      const { page, report } = p;
      const marks = await page.$$eval('#cp-chart .cp-mark', (m) => m.map((e) => e.dataset.v));
      assert.deepEqual(marks, report.rows.map((r) => r.status), 'one mark per compared row, its status');
      // every compared value's base and new, in the table and side by side
      const metrics = report.rows.flatMap((r) => r.metrics);
      const cells = await page.$$eval('#cp-compare tbody tr', (rows) => rows.filter((r) => r.cells[3].hasAttribute('data-v'))
        .map((r) => [Number(r.cells[3].dataset.v), Number(r.cells[4].dataset.v)]));
      assert.deepEqual(cells, metrics.filter((m) => typeof m.base === 'number').map((m) => [m.base, m.new]));
      const first = await page.$$eval('#cp-widgets .cp-metric', (f) => f.length);
      assert.equal(first, report.rows[0].metrics.length);
      assert.ok(await sliderMoves(page, 1), 'the slider moves the widgets');
      await shoot(page, name);
    } finally {
      await p.close();
    }
  });
}

test("a comparison names each report's GPU, and says when they differ", async () => {
  // compare_trace.html: both from one H100; compare_other_gpu.html: the new one from an A100
  for (const [name, other] of [['compare_trace.html', false], ['compare_other_gpu.html', true]]) {
    const p = await open(name);
    try {
      common(p);
      const { page, report } = p;
      const facts = await page.$$eval('.cp-meta dt', (d) => Object.fromEntries(d.map((t) => [t.textContent,
        t.nextElementSibling.textContent])));
      assert.equal(facts['base GPU'], report.base_device, `${name}: the base's GPU`);
      assert.equal(facts['new GPU'], report.new_device, `${name}: the new report's GPU`);
      const warning = await page.$$eval('#cp-other-gpu', (w) => w.map((e) => e.textContent));
      assert.equal(warning.length, other ? 1 : 0, `${name}: a warning only where the GPUs differ`);
      if (!other) continue;
      assert.ok(warning[0].includes(report.base_device) && warning[0].includes(report.new_device), warning[0]);
      // another GPU's counts: not comparable, none worse or better, said in words
      const statuses = report.rows.map((r) => r.status);
      assert.ok(statuses.includes('not_comparable') && !statuses.some((s) => ['regressed', 'improved', 'changed'].includes(s)));
      const fills = await page.$$eval('#cp-chart .cp-mark', (m) => m.map((e) => [e.dataset.v, e.getAttribute('fill')]));
      for (const [v, fill] of fills) if (v === 'not_comparable') assert.ok(!/dots/.test(fill), 'not comparable is not drawn as worse');
      const lists = await page.$$eval('.cp-two h3', (h) => h.map((e) => e.textContent));
      assert.deepEqual(lists, ['Worse (0)', 'Better (0)']);
      const row = report.rows.findIndex((r) => r.status === 'not_comparable');
      await sliderMoves(page, row);
      const captions = await page.$$eval('#cp-widgets .cp-metric figcaption', (f) => f.map((e) => e.textContent));
      assert.ok(captions.length > 0 && captions.every((c) => !c.includes('not_comparable')), captions.join('; '));
      assert.ok(captions.some((c) => / not comparable: counted on different GPUs/.test(c)), captions.join('; '));
      const titles = await page.$$eval('#cp-chart .cp-mark title', (t) => t.map((e) => e.textContent));
      assert.ok(titles.every((t) => !t.includes('not_comparable')), titles.join('; '));
    } finally {
      await p.close();
    }
  }
});

test('a comparison where one side has no rows of its own says nothing of it', async () => {
  // compare.html: neither side has rows of its own; compare_only_new.html: only the new side does
  for (const name of ['compare.html', 'compare_only_new.html']) {
    const p = await open(name);
    try {
      common(p);
      const text = await p.page.textContent('#cp-app');
      assert.ok(!/null/.test(text), `${name}: the page shows "null": ${text.slice(0, 200)}`);
      assert.equal(text.includes('only in base: '), (p.report.only_in_base || []).length > 0, name);
      assert.equal(text.includes('only in new: '), (p.report.only_in_new || []).length > 0, name);
    } finally {
      await p.close();
    }
  }
});

test('hostile names render as text', async () => {
  const p = await open('escape.html');
  try {
    common(p);
    const { page, report } = p;
    assert.equal(await page.evaluate(() => window.cpPwned), undefined, 'no injected script ran');
    assert.equal(await page.$$eval('script', (s) => s.length), 4, 'only a trace page\'s four scripts (report, page, columns, code)');
    assert.equal(await page.$$eval('img', (s) => s.length), 0);
    const evil = report.kernels[0].name;
    assert.ok(evil.includes('</script>') && evil.includes('"quoted"') && evil.includes('\u2028'));
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'escape.json'), 'utf8'));
    assert.deepEqual(report, json, 'the embedded report is the report, unchanged');
    assert.ok((await page.textContent('#cp-kernels')).includes(evil), 'the table shows the name as text');
    assert.ok((await page.textContent('#cp-kernel-chart')).includes('evil</script>'), 'the chart too');
    assert.ok((await page.textContent('title')).includes("'</script>'"));
  } finally {
    await p.close();
  }
});

test('pages read as tables with scripts off', async () => {
  for (const name of ['stride.html', 'trace.html', 'compare.html']) {
    const p = await open(name, { scripts: false });
    try {
      assert.deepEqual(p.requests, []);
      const rows = await p.page.$$eval('table.cp-table tbody tr', (r) => r.length);
      assert.ok(rows >= (p.report.rows || p.report.instructions).length, name);
      assert.equal(await p.page.$$eval('#cp-app > *', (e) => e.length), 0, 'no widget without scripts');
      assert.ok((await p.page.textContent('body')).includes('Scripts are off'));
    } finally {
      await p.close();
    }
  }
});
