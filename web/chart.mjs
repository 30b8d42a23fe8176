// chart.mjs: renders a Vega-Lite specification (as coalprobe --format vega-lite writes it) with
// vega-lite and vega, headless: the compiled Vega view, its SVG, and a PNG of that SVG drawn by
// resvg (no canvas, no browser). scripts/plot and the chart tests (tests/chart/) use it.
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';

// The view of spec, run once (its scenegraph ready), and the warnings of Vega-Lite and Vega
// (a field or channel they dropped: a fault of the spec).
export async function chartView(spec) {
  const warnings = [];
  const logger = {
    level(l) { return l === undefined ? vega.Warn : logger; },
    warn(...args) { warnings.push(args.join(' ')); return logger; },
    info() { return logger; },
    debug() { return logger; },
    error(...args) { throw new Error(args.join(' ')); },
  };
  const compiled = vegaLite.compile(spec, { logger }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger });
  await view.runAsync();
  return { view, warnings };
}

// The chart of a view as SVG text. Deterministic: the same spec gives the same bytes.
export async function chartSvg(view) {
  return view.toSVG();
}

// The SVG drawn as PNG at scale (2: twice the chart's pixel size), with the system's fonts;
// null with the reason when @resvg/resvg-js (or its build for this platform) is missing.
export async function chartPng(svg, scale = 2) {
  let Resvg;
  try {
    ({ Resvg } = await import('@resvg/resvg-js'));
  } catch (e) {
    return { png: null, why: `@resvg/resvg-js cannot be loaded here (${e.code || e.message})` };
  }
  const renderer = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return { png: renderer.render().asPng(), why: null };
}

// Every item of the view's symbol and bar marks that draws a datum of the chart's data (one with
// a "source"), as {panel, source, row, datum}: what the tests count.
export function chartMarks(view) {
  const found = [];
  const walk = (node) => {
    if (!node) return;
    if (node.marktype && node.items) {
      for (const item of node.items) {
        const d = item.datum;
        if ((node.marktype === 'symbol' || node.marktype === 'rect') && d && d.source !== undefined
            && d.row !== undefined) {
          found.push({ panel: d.panel, source: d.source, row: d.row, datum: d });
        }
        walk(item);
      }
    } else if (node.items) {
      for (const item of node.items) walk(item);
    }
  };
  walk(view.scenegraph().root);
  return found;
}
