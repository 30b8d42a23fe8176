// check_chart.mjs: checks the chart scripts/plot drew of a report (a CTest helper, run by
// chart_test.sh): SPEC (coalprobe's Vega-Lite) compiles and draws without a warning; SVG names
// every axis (each title of the spec's panels is a text of the SVG) and labels the sources drawn
// (predicted, measured, ideal); the drawn marks are one per datum of the data, never two for the
// same row, panel and source; and the report's rows with a value of the leading metric each have
// their mark there: REPORT's rows (a sweep) or its kernels and instructions (a trace); a sweep's
// rows with an arithmetic rate (GEMM) have no useful bandwidth drawn.
// usage: node check_chart.mjs SPEC.vl.json SVG REPORT.json
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const web = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'web');
const { chartMarks, chartView } = await import(pathToFileURL(path.join(web, 'chart.mjs')));

const [specPath, svgPath, reportPath] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
const svg = fs.readFileSync(svgPath, 'utf8');
const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const failures = [];
const fail = (m) => failures.push(m);

const get = (o, p) => p.split('.').reduce((v, k) => (v == null ? undefined : v[k]), o);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const unescapeXml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&#39;/g, "'").replace(/&amp;/g, '&');
// every text of the SVG, each line of a text of several lines (<tspan>s) on its own
const svgTexts = new Set();
for (const m of svg.matchAll(/<text[^>]*>(.*?)<\/text>/gs)) {
  const lines = [...m[1].matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((t) => t[1]);
  for (const line of lines.length ? lines : [m[1]]) svgTexts.add(unescapeXml(line));
}

// The SVG: well formed at the ends, and every axis title of every panel drawn as a text.
if (!svg.startsWith('<svg') || !svg.trimEnd().endsWith('</svg>')) fail('the SVG is not an <svg> document');
const panels = spec.vconcat || [spec];
for (const p of panels) {
  for (const ch of ['x', 'y']) {
    const t = get(p, `encoding.${ch}.title`);
    const lines = Array.isArray(t) ? t : [t];
    if (!lines.length || lines.some((l) => typeof l !== 'string' || !l)) fail(`a panel's ${ch} axis has no title`);
    for (const l of lines) if (typeof l === 'string' && l && !svgTexts.has(l)) fail(`the SVG has no axis title "${l}"`);
  }
}

// Vega-Lite and Vega took the spec whole, and drew one mark per datum.
const { view, warnings } = await chartView(spec);
for (const w of warnings) fail(`warning: ${w}`);
const marks = chartMarks(view);
const key = (d) => `${d.panel}|${d.source}|${d.row}`;
const drawn = new Map();
for (const m of marks) drawn.set(key(m), (drawn.get(key(m)) || 0) + 1);
for (const [k, n] of drawn) if (n > 1) fail(`${n} marks for ${k}`);
const data = spec.data.values;
const wanted = new Set(data.map(key));
for (const k of wanted) if (!drawn.has(k)) fail(`no mark for ${k}`);
for (const k of drawn.keys()) if (!wanted.has(k)) fail(`a mark for ${k}, which is no datum`);

// The sources drawn are named in a legend.
const sources = new Set(data.map((d) => d.source));
const legend = { predicted: 'predicted (model)', measured: 'measured (GPU)', ideal: 'ideal (the fewest possible)' };
for (const s of sources) if (!svgTexts.has(legend[s])) fail(`the SVG has no legend "${legend[s]}"`);

// The report's rows with a value of the leading metric, each with its own mark in that panel.
const rowsOf = (panel, source) => new Set(marks.filter((m) => m.panel === panel && m.source === source)
  .map((m) => m.row));
function expectRows(panel, source, list, p) {
  const want = list.map((r, i) => (isNum(get(r, p)) ? i : -1)).filter((i) => i >= 0);
  const got = rowsOf(panel, source);
  if (want.length !== got.size || want.some((i) => !got.has(i))) {
    fail(`${panel}, ${source}: marks for rows [${[...got].sort((a, b) => a - b)}], `
         + `the report has values in rows [${want}] (${p})`);
  }
  return want.length;
}
let counted;
if (report.kind === 'trace') {
  counted = expectRows('excess bytes by kernel (B beyond the ideal sectors)', 'measured',
                       report.kernels, 'excess_bytes')
    + expectRows('excess bytes by instruction (B beyond the ideal sectors)', 'measured',
                 report.instructions, 'excess_bytes');
} else {
  // the leading metric: global loads, or shared loads where no row has a global one (smem), or
  // the family's first counter of its own (its panel named by its key) where neither (atomic)
  const own = Object.keys(get(report.rows[0] || {}, 'predicted.family_counters') || {})[0];
  const leading = [['global load sectors per request', 'load.sectors_per_request'],
                   ['shared load wavefronts per request', 'shared_load.wavefronts_per_request'],
                   ...(own ? [[own, `family_counters.${own}`]] : [])]
    .find(([, p]) => report.rows.some((r) => isNum(get(r, `predicted.${p}`))
                                          || isNum(get(r, `measured.counters.${p}`))));
  counted = leading ? expectRows(leading[0], 'predicted', report.rows, `predicted.${leading[1]}`)
    + expectRows(leading[0], 'measured', report.rows, `measured.counters.${leading[1]}`) : 0;
}
if (!counted) fail('the report has no value of the leading metric: nothing was checked');

// A row with an arithmetic rate (GEMM) has no useful bandwidth: its threads' bytes are served
// again and again by L1 (docs/plots.md), so the chart draws its GFLOP/s only.
if (report.kind !== 'trace') {
  const rated = report.rows.map((r, i) => (isNum(get(r, 'measured.flop_per_s')) ? i : -1)).filter((i) => i >= 0);
  const banded = new Set(data.filter((d) => d.panel === 'useful bandwidth (GB/s)').map((d) => d.row));
  const both = rated.filter((i) => banded.has(i));
  if (both.length) fail(`rows [${both}] have an arithmetic rate and a useful bandwidth drawn`);
  if (rated.length && !data.some((d) => d.panel === 'GFLOP/s')) fail('rows have an arithmetic rate, none is drawn');
}

if (failures.length) {
  for (const f of failures) console.error(`check_chart: ${f}`);
  process.exit(1);
}
console.log(`check_chart: ${marks.length} marks, ${panels.length} panels, every axis named`);
